import PeerLinkCore
import FitnessDomain

/// Durable local values and crash recovery.
///
/// The active workout's `WorkoutSnapshot` is stored (`WorkoutSnapshotStore`: a head and
/// sample chunks) after every accepted change, in the same batch as the event that caused it,
/// so it is durable before the command's reply goes out. On launch the snapshot is restored
/// into the manager (`recoverActiveWorkoutSession`): same id, same state, every stored sample;
/// elapsed time is derived from the collection start and the pause/resume events, so the time
/// the process was dead counts as it would have live. An unusable snapshot is moved to
/// `workout.snapshot.unusable` (never overwritten) and logged as an error.
///
/// A snapshot whose workout is already saved (its `WorkoutRecord` is in the replicated state)
/// is not resumed: a store rollback can lose the end's batch (record, samples, snapshot
/// removal) and bring back the snapshot of a workout that had ended, while the peer's resync
/// brings the record back. The record may be there at launch (the snapshot is removed) or
/// arrive by merge later (the recovered session is dropped then); either way the saved workout
/// stands and is not ended, saved or sent a second time.
extension WatchApp {
    /// Local key of the picker: `["activity": string, "location": string]`.
    static let pickerKey = "picker"
    /// Local key of the step-gauge feed (`ComplicationFeed.plistValue()`).
    static let complicationKey = "complication"
    /// Local key of the phone's last complication push (`PhoneStepsPush.plistValue()`).
    static let phonePushKey = "phonePush"
    /// Local key of the app's presence (`WatchAppPresence` raw value).
    static let presenceKey = "presence"

    // MARK: - Launch

    /// Restores the picker, the complication feed, the presence and the phone's push; a
    /// malformed value is logged and replaced by the default.
    mutating func restoreLocalValues(_ ctx: inout NodeContext) {
        if let p = ctx.local[Self.pickerKey] {
            if let a = p["activity"]?.stringValue.flatMap(WorkoutActivityType.init(rawValue:)),
               let l = p["location"]?.stringValue.flatMap(WorkoutLocation.init(rawValue:))
            {
                picker = ActivityPicker(activity: a, location: l)
            } else {
                ctx.log(.warning, "stored picker is malformed; using the default")
            }
        }
        if let c = ctx.local[Self.complicationKey] {
            if let feed = ComplicationFeed(restoring: c, settings: complication.settings) {
                complication = feed
            } else {
                ctx.log(.warning, "stored complication feed is malformed; starting with a fresh one")
            }
        }
        if let p = ctx.local[Self.presenceKey] {
            if let presence = p.stringValue.flatMap(WatchAppPresence.init(rawValue:)) {
                lifecycle = WatchAppState(presence: presence)
            } else {
                ctx.log(.warning, "stored presence is malformed; starting in the foreground")
            }
        }
        if let p = ctx.local[Self.phonePushKey] {
            phonePush = PhoneStepsPush(restoring: p)
            if phonePush == nil { ctx.log(.warning, "stored phone push is malformed; ignored") }
        }
    }

    /// Recovers the active workout from its stored snapshot, if there is one.
    mutating func recoverWorkout(_ ctx: inout NodeContext) {
        let stored = ctx.local.dictionary
        guard let loaded = WorkoutSnapshotStore.load(from: stored) else { return }
        switch loaded {
        case .failure(let e):
            quarantineSnapshot(reason: e.description, &ctx)
        case .success(let snapshot):
            if isWorkoutSaved(snapshot.workoutID, ctx) {
                for w in WorkoutSnapshotStore.removals(sampleCount: snapshot.samples.count) { ctx.setLocal(w.key, nil) }
                ctx.log(.warning, "workout \(snapshot.workoutID) not recovered: it is already saved; snapshot removed")
                return
            }
            let effects = manager.recover(from: snapshot, at: ctx.now)
            if let refusal = effects.refusal {
                quarantineSnapshot(reason: refusal.description, &ctx)
                return
            }
            persistedWorkoutID = snapshot.workoutID
            // Chunks of another size are rewritten whole at the next persist.
            persistedSampleCount = WorkoutSnapshotStore.hasCurrentLayout(stored) ? snapshot.samples.count : 0
            for line in effects.logLines { ctx.log(.info, line) }
        }
    }

    /// Drops the active session when the replicated state holds it as a saved workout (a
    /// resync brought back the record of a workout a store rollback had resumed); the
    /// snapshot is removed and mirroring stops.
    mutating func dropActiveWorkoutIfSaved(_ ctx: inout NodeContext) {
        guard let s = manager.session, isWorkoutSaved(s.id, ctx) else { return }
        ctx.log(.warning, "workout \(s.id) is already saved (its record came back by sync): the recovered session is dropped")
        apply(manager.dropAlreadySaved(workoutID: s.id), &ctx)
    }

    /// True when the replicated state holds `workoutID` as a saved workout (an ended record).
    func isWorkoutSaved(_ workoutID: String, _ ctx: NodeContext) -> Bool {
        ctx.replica.record(WorkoutRecord.self, id: workoutID)?.state == .ended
    }

    /// Moves the stored snapshot's values aside under `WorkoutSnapshotStore.quarantineKey` and
    /// removes them from the live keys.
    mutating func quarantineSnapshot(reason: String, _ ctx: inout NodeContext) {
        let keys = ctx.local.keys.filter {
            $0 == WorkoutSnapshotStore.headKey || $0.hasPrefix(WorkoutSnapshotStore.chunkKeyPrefix)
        }.sorted()
        var moved: [String: PlistValue] = ["reason": .string(reason), "atMs": .int(ctx.now)]
        for k in keys {
            moved[k] = ctx.local[k]
            ctx.setLocal(k, nil)
        }
        ctx.setLocal(WorkoutSnapshotStore.quarantineKey, .dictionary(moved))
        ctx.log(.error, "workout not recovered: \(reason); snapshot moved to \(WorkoutSnapshotStore.quarantineKey)")
        noteError(L10n.watchNotRecovered(reason)(ctx.language))
    }

    // MARK: - Persisting

    /// Brings the stored snapshot up to the manager's active session, or removes it when
    /// there is none.
    mutating func persistWorkout(_ ctx: inout NodeContext) {
        let session = manager.session
        if persistedWorkoutID != nil, persistedWorkoutID != session?.id {
            for w in WorkoutSnapshotStore.removals(sampleCount: persistedSampleCount) { ctx.setLocal(w.key, nil) }
            persistedWorkoutID = nil
            persistedSampleCount = 0
        }
        guard let session, let builder = manager.builder else { return }
        // The writes of `manager.snapshotWrites(at:persistedSampleCount:)`, encoded incrementally.
        let stored = persistedWorkoutID == session.id ? persistedSampleCount : 0
        ctx.setLocal(WorkoutSnapshotStore.headKey, encoded: snapshotEncoder.headBytes(session: session, builder: builder, at: ctx.now))
        let count = builder.samples.count
        if count > stored {
            let size = WorkoutSnapshotStore.samplesPerChunk
            for i in (max(0, stored) / size)...((count - 1) / size) {
                let lower = i * size
                let bytes = snapshotEncoder.chunkBytes(
                    workoutID: session.id, index: i, samples: builder.samples, range: lower..<min(count, lower + size))
                ctx.setLocal(snapshotEncoder.chunkKey, encoded: bytes)
            }
        }
        persistedWorkoutID = session.id
        persistedSampleCount = count
    }

    /// Stores the picker's activity and location.
    mutating func persistPicker(_ ctx: inout NodeContext) {
        ctx.setLocal(Self.pickerKey, ["activity": .string(picker.activity.rawValue), "location": .string(picker.location.rawValue)])
    }

    /// Stores the complication feed (its budget must survive a restart).
    mutating func persistComplication(_ ctx: inout NodeContext) {
        ctx.setLocal(Self.complicationKey, complication.plistValue())
    }
}
