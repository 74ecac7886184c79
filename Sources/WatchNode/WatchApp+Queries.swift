import PeerLinkCore
import FitnessDomain
import CountdownDomain

/// `query PATH…` (scenario expectations) and `show SCREEN` (text for people, JSON as the
/// reply value). The paths are listed in docs/WATCH.md.
extension WatchApp {
    // MARK: - Queries

    /// A value for `query PATH…`; nil when there is no such value.
    public func query(_ path: [String], _ ctx: NodeContext) -> PlistValue? {
        let rest = path.dropFirst()
        switch path.first {
        case "workouts": return workoutsQuery(rest, ctx)
        case "workout": return workoutQuery(rest, ctx)
        case "picker": return rest.first.flatMap { picker.jsonValue()[$0] } ?? (rest.isEmpty ? picker.jsonValue() : nil)
        case "rings": return ringsQuery(rest, ctx)
        case "samples" where rest.first == "count":
            // The replicated samples (the phone's and the watch's, saved workouts' series
            // expanded), as the phone's `samples count [KIND]`.
            return .int(Int64(HealthSampleKind.count(HealthSampleSeries.allSamples(in: ctx.replica), matching: rest.dropFirst().first)))
        case "steps" where rest.first == "today": return .int(Int64(displayedSteps(todayTotals(ctx), calendar: ctx.calendar)))
        case "settings": return settingsQuery(rest, ctx)
        case "complication": return complicationQuery(rest, ctx)
        case "goal", "goals", "profile":
            if let v = goalQuery(rest) { return v }
            let input = CountdownCommandInput(
                goals: ctx.replica.all(CountdownGoal.self), profile: ctx.replica.record(UserProfile.self, id: UserProfile.recordID),
                deletion: goalDeletion, nowMs: ctx.now, calendar: ctx.calendar, language: ctx.language, newGoalID: "")
            return CountdownCommands.query(path, input)
        case "reachable": return .bool(ctx.session.isReachable)
        case "app": return rest.isEmpty ? appValue(ctx) : appValue(ctx)[rest.first!]
        case "runtime":
            guard let key = rest.first else { return runtimeValue }
            if key == "last-end" {
                guard case .extendedRuntimeEnded(_, let reason, _)? = lastRuntimeEnd else { return .string("none") }
                return .string(reason.rawValue)
            }
            return runtimeValue[key]
        case "mirror": return mirrorQuery(rest)
        case "files": return filesQuery(rest, ctx)
        case "messages": return messagesQuery(rest)
        case "link-errors": return linkErrorsQuery(rest)
        case "context": return contextQuery(rest, ctx)
        case "errors":
            switch rest.first {
            case "last": return .string(lastError ?? "none")
            case "count": return .int(Int64(errorCount))
            default: return nil
            }
        default: return nil
        }
    }

    /// `workouts` (saved count), `workouts last id|state|elapsed|energy|samples|hr avg…`.
    func workoutsQuery(_ rest: ArraySlice<String>, _ ctx: NodeContext) -> PlistValue? {
        guard let first = rest.first else { return .int(Int64(ctx.replica.count(in: WorkoutRecord.collection))) }
        guard first == "last" else { return nil }
        let saved = ctx.replica.all(WorkoutRecord.self).max { ($0.endMs ?? $0.startMs, $0.id) < ($1.endMs ?? $1.startMs, $1.id) }
        guard let r = saved else { return rest.count == 1 ? .string("none") : nil }
        var v = r.fields
        v["id"] = .string(r.id)
        return rest.count == 1 ? .dictionary(v) : recordField(r, Array(rest.dropFirst()))
    }

    func recordField(_ r: WorkoutRecord, _ path: [String]) -> PlistValue? {
        switch path {
        case ["id"]: .string(r.id)
        case ["state"]: .string(r.state.rawValue)
        case ["activity"]: .string(r.activity.rawValue)
        case ["elapsed"]: .int(r.elapsedMs)
        case ["energy"]: .double(r.totalEnergyKcal)
        case ["hr", "count"], ["samples"]: .int(Int64(r.heartRateSampleCount))
        case ["hr", "avg"]: r.heartRateAverage.map { .double($0) }
        case ["hr", "min"]: r.heartRateMin.map { .double($0) }
        case ["hr", "max"]: r.heartRateMax.map { .double($0) }
        default: nil
        }
    }

    /// `workout` (the screen), `workout state|id|elapsed|activity|location|samples|energy`,
    /// `workout hr latest|avg|min|max|count`. State is `none` without a session.
    func workoutQuery(_ rest: ArraySlice<String>, _ ctx: NodeContext) -> PlistValue? {
        guard let s = manager.session, let b = manager.builder else {
            return rest.isEmpty || rest == ["state"] ? .string("none") : nil
        }
        switch Array(rest) {
        case []: return manager.screen(at: ctx.now)?.jsonValue()
        case ["state"]: return .string(s.state.rawValue)
        case ["id"]: return .string(s.id)
        case ["elapsed"]: return .int(b.elapsedMs(at: ctx.now))
        case ["activity"]: return .string(s.configuration.activity.rawValue)
        case ["location"]: return .string(s.configuration.location.rawValue)
        case ["samples"]: return .int(Int64(b.samples.count))
        case ["energy"]: return .double(b.totalEnergyKcal)
        case ["start"]: return s.startMs.map { .int($0) }
        case ["hr", "latest"]: return b.heartRate.mostRecent.map { .double($0) }
        case ["hr", "avg"]: return b.heartRate.average.map { .double($0) }
        case ["hr", "min"]: return b.heartRate.minimum.map { .double($0) }
        case ["hr", "max"]: return b.heartRate.maximum.map { .double($0) }
        case ["hr", "count"]: return .int(Int64(b.heartRate.count))
        default: return nil
        }
    }

    /// `rings`, `rings steps|energy [value|goal|fraction|closed]`, `rings day`.
    func ringsQuery(_ rest: ArraySlice<String>, _ ctx: NodeContext) -> PlistValue? {
        let v = rings(ctx).jsonValue()
        guard let first = rest.first else { return v }
        let ring: PlistValue?
        switch first {
        case "steps": ring = v["steps"]
        case "energy": ring = v["energyKcal"]
        case "day": return rest.count == 1 ? v["day"] : nil
        default: return nil
        }
        guard rest.count <= 2 else { return nil }
        return rest.count == 1 ? ring : ring?[rest[rest.startIndex + 1]]
    }

    /// `settings step-goal|energy-goal`.
    func settingsQuery(_ rest: ArraySlice<String>, _ ctx: NodeContext) -> PlistValue? {
        let s = settings(ctx)
        switch rest.first {
        case nil: return .dictionary(s.fields)
        case "step-goal": return .int(Int64(s.stepGoal))
        case "energy-goal": return .int(Int64(s.activeEnergyGoalKcal))
        default: return nil
        }
    }

    /// `complication value|max|fraction|label|reloads|pending|total-reloads|entries`.
    func complicationQuery(_ rest: ArraySlice<String>, _ ctx: NodeContext) -> PlistValue? {
        let v = complicationValue(ctx)
        switch rest.first {
        case nil: return v
        case "value", "max", "fraction", "label", "family", "gaugeStyle": return v[rest.first!]
        case "reloads": return v["reloadsInWindow"]
        case "total-reloads": return v["totalReloads"]
        case "entries": return v["entries"]
        case "pending": return complication.pending.map { .int(Int64($0.steps)) } ?? .bool(false)
        case "pushes":
            let v: PlistValue = ["complication": .int(Int64(link.complicationPushes)), "ordinary": .int(Int64(link.complicationPushesOrdinary)),
                                 "total": .int(Int64(link.complicationPushes + link.complicationPushesOrdinary))]
            return rest.count > 1 ? v[rest[rest.startIndex + 1]] : v
        default: return nil
        }
    }

    /// `mirror sent|skipped|bytes|last-skip`.
    func mirrorQuery(_ rest: ArraySlice<String>) -> PlistValue? {
        switch rest.first {
        case nil: return link.jsonValue()
        case "sent": return .int(Int64(link.mirrorSent))
        case "skipped": return .int(Int64(link.mirrorSkipped))
        case "bytes": return .int(Int64(link.mirrorBytes))
        case "last-skip": return .string(link.lastSkipReason ?? "none")
        case "active": return .bool(manager.mirror.isMirroring)
        default: return nil
        }
    }

    /// `files sent|queued|delivered|failed|outstanding|transferring|progress`,
    /// `files last name|bytes|samples`.
    func filesQuery(_ rest: ArraySlice<String>, _ ctx: NodeContext) -> PlistValue? {
        let outstanding = ctx.outstandingFileTransfers
        switch (rest.first, rest.dropFirst().first) {
        case ("sent", nil): return .int(Int64(link.filesSent))
        case ("queued", nil): return .int(Int64(link.filesQueued))
        case ("delivered", nil): return .int(Int64(link.filesDelivered))
        case ("failed", nil): return .int(Int64(link.filesFailed))
        case ("outstanding", nil): return .int(Int64(outstanding.count))
        case ("transferring", nil): return .bool(outstanding.contains { $0.isTransferring })
        case ("progress", nil): return outstanding.first.map { .double($0.progress) } ?? .string("none")
        case ("last", let field):
            guard case .transferFile(let name, let bytes, let metadata)? = link.lastFile else { return .string("none") }
            switch field {
            case nil, "name": return .string(name)
            case "bytes": return .int(Int64(bytes.count))
            case "samples": return metadata["sampleCount"]
            default: return nil
            }
        default: return nil
        }
    }

    /// `messages sent|failed|received`: `sendMessage` calls, `messageDidFail` callbacks,
    /// messages from the phone.
    func messagesQuery(_ rest: ArraySlice<String>) -> PlistValue? {
        let v: PlistValue = ["sent": .int(Int64(link.messagesSent)), "failed": .int(Int64(link.messagesFailed)),
                             "received": .int(Int64(link.messagesReceived))]
        return rest.first.map { v[$0] } ?? v
    }

    /// `link-errors last|count`: the last `WCErrorDomain` code name the app saw (`"none"`).
    func linkErrorsQuery(_ rest: ArraySlice<String>) -> PlistValue? {
        switch rest.first {
        case nil, "last": return .string(link.lastLinkError ?? "none")
        case "count": return .int(Int64(link.linkErrors))
        default: return nil
        }
    }

    // MARK: - Screens

    /// `show workout|picker|rings|complication|goals|app|link|help`.
    func showCommand(_ w: [String], _ ctx: NodeContext) -> CommandReply {
        let usage = L10n.usage("show workout|picker|rings|complication|goals|app|link|help")(ctx.language)
        guard w.count == 2 else { return .error(usage) }
        switch w[1] {
        case "workout":
            guard let screen = manager.screen(at: ctx.now) else { return .ok(picker.jsonValue(), text: picker.text(ctx.language)) }
            return .ok(screen.jsonValue(), text: screen.text(ctx.language))
        case "picker":
            return .ok(picker.jsonValue(), text: picker.text(ctx.language))
        case "rings":
            let r = rings(ctx)
            return .ok(r.jsonValue(), text: r.text(ctx.language))
        case "complication":
            return .ok(complicationValue(ctx), text: complication.text(ctx.language))
        case "goals":
            return .ok(goalsValue(ctx), text: goalsText(ctx))
        case "app":
            return .ok(appValue(ctx), text: appText(ctx))
        case "link":
            return .ok(link.jsonValue(), text: link.text(ctx.language))
        case "help":
            return .ok(.string(Self.helpText(ctx.language)), text: Self.helpText(ctx.language))
        default:
            return .error(usage)
        }
    }
}
