#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PeerLinkCore
import FitnessDomain

/// The phone's WatchConnectivity delegate: the watch's messages (live workout), the
/// outcomes of our start requests, received workout sample files, failed transfers.
extension PhoneApp {
    /// Where received workout sample files are kept, relative to the node's file root.
    public static let workoutFilesDirectory = "workouts"
    /// A received sample file larger than this is kept but not decoded.
    public static let maxDecodedFileBytes: Int64 = 64 << 20

    // MARK: - Events

    /// One delegate callback (the caller saves the state).
    mutating func handleLinkEvent(_ event: LinkEvent, _ ctx: inout NodeContext) {
        switch event {
        case .didReceiveMessage(let m):
            state.link.messagesReceived += 1
            let reply = onWatchMessage(m.payload, &ctx)
            if m.replyExpected, case .failure(let e) = ctx.replyToMessage(m.id, with: .dictionary(reply.dictionary)) {
                state.link.recordLinkError(e.code.name)
            }
        case .didReceiveMessageReply(let id, let payload):
            guard let i = state.link.pendingStarts.firstIndex(where: { $0.messageID == id }) else { return }
            state.link.pendingStarts.remove(at: i)
            var reply: [String: PlistValue] = [:]
            if case .dictionary(let d) = payload { reply = d }
            if let error = reply["error"] {
                state.link.lastStartResult = "error: \(error.stringValue ?? error.jsonString())"
                ctx.log(.warning, "the watch refused startWorkout: \(error.logText())")
            } else {
                state.link.lastStartResult = "ok"
            }
            // The person who accepted the prompt is told what the watch did.
            ctx.notify(L10n.phoneWatchStartAnswer(reply, language: ctx.language))
        case .messageDidFail(let id, let e):
            state.link.messagesFailed += 1
            state.link.recordLinkError(e.code.name)
            guard let i = state.link.pendingStarts.firstIndex(where: { $0.messageID == id }) else { return }
            let p = state.link.pendingStarts.remove(at: i)
            let payload = PhoneEffect.startWatchWorkout(activity: p.activity, startMs: p.startMs).payload
            _ = sendStartAsUserInfo(payload, because: "the message failed (\(e.code.name))", &ctx)
        case .didReceiveFile(let file):
            receiveFile(file, &ctx)
        case .didFinishUserInfoTransfer(_, let error?):
            state.link.recordLinkError(error.code.name)
        case .didReceiveUserInfo(let info, _):
            ctx.log(.debug, "ignored user info from the watch: \(info.logSummary())")
        case .peerAppStateDidChange(let watch):
            endLiveWorkoutIfTheWatchHasNone(watch, &ctx)
        default:
            break
        }
    }

    /// The phone's answer to a message from the watch (sent when a reply is expected, so
    /// the dictionary is built only then).
    enum WatchMessageReply: Equatable {
        case ok
        case error(String)

        /// `["ok": true]` or `["error": text]`.
        var dictionary: [String: PlistValue] {
            switch self {
            case .ok: ["ok": true]
            case .error(let text): ["error": .string(text)]
            }
        }
    }

    /// A message from the watch: live metrics or the end of mirroring. The reply (when one
    /// is expected) is `["ok": true]` or `["error": text]`.
    mutating func onWatchMessage(_ payload: MessagePayload, _ ctx: inout NodeContext) -> WatchMessageReply {
        guard case .dictionary(let d) = payload else { return .error("the phone takes dictionary messages only") }
        // A message of the live wire shape's keys only (every live-metrics message) is read
        // in one pass; anything else by name.
        var fields = LiveWorkout.Fields()
        let read = fields.read(d)
        let type = read ? fields.type : d["type"]?.stringValue
        switch type {
        case let t? where Self.sameString(t, LiveWorkout.metricsType):
            let live = read ? fields.workout(receivedMs: ctx.now) : LiveWorkout(fields: .dictionary(d), receivedMs: ctx.now)
            return onLive(live, payload: .dictionary(d), &ctx) ? .ok : .error("live metrics without a known state")
        case LiveWorkout.stoppedType?:
            let id = read ? fields.live.workoutID : d["workoutID"]?.stringValue
            endLiveWorkout(id: id, &ctx)
            return .ok
        default:
            ctx.log(.debug, "ignored a message from the watch: \(PlistValue.dictionary(d).logSummary())")
            return .error("unknown message")
        }
    }

    /// The watch's traffic the phone app takes as its own: live-workout messages and workout
    /// sample files. Anything else (sent by hand at the watch's prompt) is shown at the prompt.
    public func isOwnTraffic(_ event: LinkEvent, _ ctx: NodeContext) -> Bool {
        switch event {
        case .didReceiveMessage(let m):
            guard case .dictionary(let d) = m.payload, let type = Self.messageType(d) else { return false }
            return Self.sameString(type, LiveWorkout.metricsType) || type == LiveWorkout.stoppedType
        case .didReceiveFile(let file): return Self.isWorkoutSampleFile(file)
        default: return false
        }
    }

    /// `d["type"]?.stringValue`, found by a pass over the keys (a message has a dozen; the
    /// one of four UTF-8 bytes equal to `type` is the one the lookup finds) instead of
    /// hashing the name; looked up when no such key is there.
    static func messageType(_ d: [String: PlistValue]) -> String? {
        let i = d.keys.firstIndex { $0.utf8.count == 4 && $0 == "type" } ?? d.index(forKey: "type")
        return i.flatMap { d.values[$0].stringValue }
    }

    /// `a == b`, deciding at once when their UTF-8 bytes are the same (a message's `type`
    /// against the one the app sends: `==` on two distinct non-small strings goes through the
    /// standard library's general comparison, ~120 instructions).
    static func sameString(_ a: String, _ b: String) -> Bool {
        let sameBytes = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in
                x.count == y.count && (x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0)
            }
        }
        return sameBytes == true || a == b
    }

    /// A workout sample file (by its metadata's type or its name).
    static func isWorkoutSampleFile(_ file: ReceivedFile) -> Bool {
        file.metadata?["type"]?.stringValue == WorkoutSampleFile.type || file.name.hasSuffix(".samples.plist")
    }

    // MARK: - Live workout

    /// Mirroring stopped (the workout ended): the live workout stays as its last state, ended.
    /// A workout that was running counted on until now (`liveElapsedMs`), so the time shown
    /// stops where it reached, not at the last metrics; the saved record, when it arrives,
    /// gives the watch's exact figure.
    mutating func endLiveWorkout(id: String?, _ ctx: inout NodeContext) {
        guard var live = state.live, id == nil || live.workoutID == nil || live.workoutID == id else { return }
        if live.state == .running, let e = live.elapsedMs { live.elapsedMs = e + max(0, ctx.now - live.receivedMs) }
        live.state = .ended
        live.receivedMs = ctx.now
        state.live = live
    }

    /// The watch's saved workout reached the phone through the replicated state: a live
    /// workout still shown as active (mirroring stopped while unreachable) ends.
    mutating func endLiveWorkoutIfSaved(_ ctx: inout NodeContext) {
        guard let live = state.live, live.isActive, let id = live.workoutID,
              let record = ctx.replica.record(WorkoutRecord.self, id: id), record.state == .ended else { return }
        endLiveWorkout(id: id, &ctx)
    }

    /// The watch reported its app state: without a workout session there (`workoutActive`
    /// false: none prepared, running or paused), a live workout still shown as active ends.
    /// Its session is gone without a word — the watch's store was found corrupt and reset,
    /// say — and neither `mirroringStopped` nor a saved record will come. The report follows
    /// the watch's messages on the same connection, so it never overtakes the metrics of a
    /// workout it does not know.
    mutating func endLiveWorkoutIfTheWatchHasNone(_ watch: AppState, _ ctx: inout NodeContext) {
        guard !watch.workoutActive, let live = state.live, live.isActive else { return }
        ctx.log(.info, "the watch reports no workout session: live workout \(live.workoutID ?? "—") ended")
        endLiveWorkout(id: nil, &ctx)
    }

    // MARK: - Files

    /// A file from the watch: a workout sample file is read, moved into `workouts/` before
    /// the callback returns (else the session deletes it), and decoded; others are left to
    /// be deleted.
    mutating func receiveFile(_ file: ReceivedFile, _ ctx: inout NodeContext) {
        guard Self.isWorkoutSampleFile(file) else {
            ctx.log(.info, "ignored a file from the watch: \(file.name)")
            return
        }
        let path = "\(Self.workoutFilesDirectory)/\(file.name)"
        var record = PhoneLinkState.ReceivedWorkoutFile(name: file.name, path: path, bytes: file.sizeBytes, atMs: ctx.now)
        if file.sizeBytes > Self.maxDecodedFileBytes {
            record.error = "\(file.sizeBytes) bytes: not decoded (limit \(Self.maxDecodedFileBytes))"
        } else {
            if let bytes = file.contents {
                // The phone keeps the id and the count: a file as the watch writes it is read
                // for those alone; anything else is decoded in full, which says what is wrong.
                let read: Result<WorkoutSampleFile.Summary, WorkoutSampleFileError> = WorkoutSampleFile.summary(bytes).map { .success($0) }
                    ?? WorkoutSampleFile.decode(bytes).map { WorkoutSampleFile.Summary(workoutID: $0.record.id, sampleCount: $0.samples.count) }
                switch read {
                case .success(let decoded):
                    record.workoutID = decoded.workoutID
                    record.sampleCount = decoded.sampleCount
                    if let expected = file.metadata?["sampleCount"]?.intValue, expected != Int64(decoded.sampleCount) {
                        record.error = "metadata says \(expected) samples, the file holds \(decoded.sampleCount)"
                    }
                case .failure(let e):
                    record.error = e.description
                }
            } else {
                record.error = "not readable"
            }
        }
        if case .failure(let e) = ctx.moveReceivedFile(file, to: path) {
            state.link.recordLinkError(e.code.name)
            record.error = "not kept: \(e)"
        }
        state.link.filesReceived += 1
        state.link.lastFile = record
        if let error = record.error {
            ctx.log(.warning, "workout file \(file.name): \(error)")
        } else {
            ctx.log(.info, "workout file \(file.name) kept at \(path): \(record.sampleCount ?? 0) samples of \(record.workoutID ?? "?")")
        }
    }

    // MARK: - Queries

    /// `messages …`, `link-errors …`, `complication remaining|enabled|pushes …`, `files …`,
    /// `context …`, `watch-start …`; nil for other paths.
    func linkQuery(_ head: String, _ rest: [String], _ ctx: NodeContext) -> PlistValue? {
        let l = state.link
        func pick(_ v: PlistValue) -> PlistValue? { rest.isEmpty ? v : v[rest[0]] }
        switch head {
        case "messages":
            return pick(["sent": .int(Int64(l.messagesSent)), "failed": .int(Int64(l.messagesFailed)), "received": .int(Int64(l.messagesReceived))])
        case "link-errors":
            switch rest.first {
            case nil, "last": return .string(l.lastLinkError ?? "none")
            case "count": return .int(Int64(l.linkErrors))
            default: return nil
            }
        case "complication":
            let v = complicationLinkValue(ctx)
            guard let field = rest.first else { return v }
            return rest.count > 1 ? v[field]?[rest[1]] : v[field]
        case "files":
            switch (rest.first, rest.dropFirst().first) {
            case ("received", nil), ("received", "count"): return .int(Int64(l.filesReceived))
            case ("last", let field):
                guard let f = l.lastFile else { return .string("none") }
                return field.map { f.plistValue[$0] ?? "—" } ?? f.plistValue
            default: return nil
            }
        case "context":
            let c = PlistValue.dictionary(ctx.applicationContext)
            switch rest.first {
            case nil: return c
            case "sent": return .int(Int64(l.contextsSent))
            case "settings":
                guard rest.count > 1 else { return c[Self.settingsContextKey] }
                let names = ["step-goal": "stepGoal", "energy-goal": "energyGoal", "weekly-summary": "weeklySummary", "run-detection": "runDetection"]
                return c[Self.settingsContextKey]?[names[rest[1]] ?? rest[1]]
            default: return c[rest[0]]
            }
        case "watch-start":
            return pick(["via": .string(l.lastStartVia ?? "none"), "result": .string(l.lastStartResult ?? "none"),
                         "byMessage": .int(Int64(l.startsByMessage)), "byUserInfo": .int(Int64(l.startsByUserInfo)),
                         "pending": .int(Int64(l.pendingStarts.count))])
        default:
            return nil
        }
    }

    /// The complication link state: budget left today, whether it is on the face, the pushes.
    func complicationLinkValue(_ ctx: NodeContext) -> PlistValue {
        let l = state.link
        return [
            "remaining": .int(Int64(ctx.remainingComplicationUserInfoTransfers)), "enabled": .bool(ctx.isComplicationEnabled),
            "pushes": ["sent": .int(Int64(l.complicationSent)), "fallback": .int(Int64(l.complicationFallback)),
                       "failed": .int(Int64(l.complicationFailed))],
        ]
    }
}
