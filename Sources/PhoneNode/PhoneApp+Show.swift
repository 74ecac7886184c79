import PeerLinkCore
import FitnessDomain
import CountdownDomain

/// `show SCREEN`: each screen as readable text (the reply's text) and as JSON (its value).
/// The same screens back `phone-node show …` on a state directory.
extension PhoneApp {
    /// The screens `show` knows.
    public static let screens = ["dashboard", "history", "settings", "widgets", "notifications", "goals", "workouts", "live", "effects", "link", "help"]

    /// `show dashboard | history [weekly|monthly] | settings | widgets | notifications | goals |
    /// workouts | live | effects | link | help`.
    func show(_ args: [String], _ ctx: NodeContext) -> CommandReply {
        let l = ctx.language
        switch args.first {
        case "dashboard", nil:
            let d = dashboard(ctx)
            var value = d.jsonValue().dictionaryValue ?? [:]
            var lines = [d.text(l)]
            if state.auth.authorization.needsAuthorizationRequest { lines.append(L10n.phoneAuthorizationNeeded(l)) }
            if let live = state.live {
                value["liveWorkout"] = live.plistValue
                lines.append(liveText(ctx) ?? "")
            }
            return .ok(.dictionary(value), text: lines.joined(separator: "\n"))
        case "history":
            let range = args.count > 1 ? FitnessHistoryRange(rawValue: args[1]) : .weekly
            guard let range else { return .error(L10n.usage("show history [weekly|monthly]")(l)) }
            let h = history(range, ctx)
            return .ok(h.jsonValue(), text: h.text(l))
        case "settings":
            return .ok(settingsScreenValue(ctx), text: settingsScreenText(ctx))
        case "widgets":
            return .ok(widgetsValue(ctx), text: widgetsText(ctx))
        case "notifications":
            return .ok(notificationsValue(), text: notificationsText(ctx))
        case "goals":
            let result = CountdownCommands.run(["goal", "list"], countdownInput(ctx))!
            let widget = countdownWidgetTimeline()?.text(l) ?? L10n.phoneWidgetNotLoaded(l)
            return .ok(result.value, text: "\(L10n.phoneGoals(l))\n\(result.text)\n[widget] \(widget)")
        case "workouts":
            let all = workouts(ctx)
            let value = PlistValue.array(all.map { .dictionary($0.fields.merging(["id": .string($0.id)]) { a, _ in a }) })
            let lines = all.map { w in
                "\(PhoneTime.dateTime(w.startMs, ctx.calendar)) \(Self.activityName(w.activity)(l)) \(Self.stateName(w.state)(l)) "
                    + "\(L10n.watchElapsedTime(l)) \(FitnessFormat.elapsed(w.elapsedMs)) "
                    + "\(FitnessFormat.kcal(w.totalEnergyKcal)) \(FitnessFormat.bpm(w.heartRateAverage)) [\(w.id)]"
            }
            return .ok(value, text: ([L10n.phoneWorkouts(l) + " (\(all.count))"] + lines).joined(separator: "\n"))
        case "live":
            return .ok(state.live?.plistValue ?? .dictionary([:]), text: liveText(ctx) ?? L10n.fitnessPlaceholder(l))
        case "effects":
            let items = state.effects.map {
                PlistValue.dictionary(["at": .int($0.atMs), "kind": .string($0.effect.kind), "payload": $0.effect.payload,
                                       "outcome": .string($0.outcome ?? "none")])
            }
            let lines = state.effects.map {
                "\(PhoneTime.dateTime($0.atMs, ctx.calendar)) \(L10n.phoneEffect($0.effect, ctx.calendar)(l)) → \($0.outcome ?? L10n.noneText(l))"
            }
            return .ok(.array(items), text: lines.isEmpty ? L10n.phoneNoEffects(l) : lines.joined(separator: "\n"))
        case "link":
            return .ok(linkScreenValue(ctx), text: linkScreenText(ctx))
        case "help":
            return .ok(.string(Self.helpText(l)), text: Self.helpText(l))
        default:
            return .error(L10n.usage("show \(Self.screens.joined(separator: "|"))")(l))
        }
    }

    // MARK: - View models

    /// The dashboard tab at this moment.
    func dashboard(_ ctx: NodeContext) -> FitnessDashboard {
        FitnessDashboard.make(
            samples: samples(ctx), settings: settings(ctx), authorization: state.auth.authorization,
            nowMs: ctx.now, calendar: ctx.calendar, statistics: statistics)
    }

    /// The history tab at this moment.
    func history(_ range: FitnessHistoryRange, _ ctx: NodeContext) -> FitnessHistory {
        FitnessHistory.make(
            samples: samples(ctx), range: range, settings: settings(ctx), authorization: state.auth.authorization,
            nowMs: ctx.now, calendar: ctx.calendar, statistics: statistics)
    }

    /// Every widget's current entry, policy and budget.
    func widgetsValue(_ ctx: NodeContext) -> PlistValue {
        let w = state.widgets, c = state.countdownWidget
        func budget(_ r: WidgetReloads) -> PlistValue {
            let b = r.budget(ctx.calendar), reloads = r.reloads, denied = r.denied, next = r.nextReloadMs
            var d: [String: PlistValue] = [
                "limit": .int(Int64(b.dailyLimit)), "used": .int(Int64(b.dailyLimit - b.remaining(nowMs: ctx.now))),
                "remaining": .int(Int64(b.remaining(nowMs: ctx.now))), "reloads": .int(Int64(reloads)), "denied": .int(Int64(denied)),
            ]
            if let next { d["nextReload"] = .int(next) }
            return .dictionary(d)
        }
        var v: [String: PlistValue] = [
            "fitnessBudget": budget(w.reload),
            "countdownBudget": budget(c.reload),
            "url": .string(FitnessWidgets.deepLink), "accentColor": .string(FitnessWidgets.accentColorHex),
        ]
        if let s = smallWidgetEntry(ctx) { v["small"] = s.jsonValue() }
        if let m = mediumWidgetEntry(ctx) { v["medium"] = m.jsonValue() }
        if let at = w.entryMs, let shown = w.shown {
            v["entryDates"] = .array(FitnessWidgets.timelineSnapshots(shown, nowMs: at).map { .int($0.dateMs) })
        }
        if let next = w.reload.nextReloadMs { v["policy"] = FitnessWidgetReloadPolicy.after(next).plistValue }
        if let t = countdownWidgetTimeline() { v["countdown"] = t.jsonValue(ctx.language) }
        if let g = w.appGroup { v["appGroup"] = g.plistValue }
        return .dictionary(v)
    }

    /// The widgets as text.
    func widgetsText(_ ctx: NodeContext) -> String {
        let l = ctx.language, none = L10n.phoneWidgetNotLoaded(l)
        let fitness = state.widgets.reload.budget(ctx.calendar)
        let countdown = state.countdownWidget.reload.budget(ctx.calendar)
        func used(_ b: FitnessWidgetReloadBudget) -> String {
            L10n.phoneWidgetReloads(used: b.dailyLimit - b.remaining(nowMs: ctx.now), limit: b.dailyLimit)(l)
        }
        return [
            L10n.phoneWidgets(l),
            "[small] \(smallWidgetEntry(ctx)?.text(l) ?? none)",
            "[medium] \(mediumWidgetEntry(ctx)?.text(l) ?? none)",
            "  \(FitnessWidgets.deepLink) — \(used(fitness))",
            "[countdown] \(countdownWidgetTimeline()?.text(l) ?? none)",
            "  \(countdownWidgetTimeline()?.current?.link.url ?? CountdownDeepLink.list.url) — \(used(countdown))",
        ].joined(separator: "\n")
    }

    // MARK: - Link

    /// `show link`: messages, start requests, complication pushes, files, the context.
    func linkScreenValue(_ ctx: NodeContext) -> PlistValue {
        var d = state.link.plistValue.dictionaryValue ?? [:]
        d["complication"] = complicationLinkValue(ctx)
        d["applicationContext"] = .dictionary(ctx.applicationContext)
        d["reachable"] = .bool(ctx.isReachable)
        return .dictionary(d)
    }

    /// The link screen as text.
    func linkScreenText(_ ctx: NodeContext) -> String {
        let l = state.link, lang = ctx.language
        let none = L10n.noneText(lang)
        let complication = L10n.phoneComplicationState(
            enabled: ctx.isComplicationEnabled, remaining: ctx.remainingComplicationUserInfoTransfers, sent: l.complicationSent,
            fallback: l.complicationFallback, failed: l.complicationFailed)(lang)
        if lang == .ja {
            return [
                "Apple Watch: \(ctx.isReachable ? "到達可能" : "到達不可")",
                "メッセージ: 送信 \(l.messagesSent)、失敗 \(l.messagesFailed)、受信 \(l.messagesReceived)",
                "開始リクエスト: メッセージで \(l.startsByMessage)、ユーザー情報で \(l.startsByUserInfo)。最後: \(l.lastStartVia ?? none) → \(l.lastStartResult ?? none)",
                complication,
                "受信したファイル: \(l.filesReceived)" + (l.lastFile.map { " — 最後: \($0.name)（サンプル \($0.sampleCount ?? 0)件）" } ?? ""),
                "リンクエラー: \(l.linkErrors)" + (l.lastLinkError.map { " — 最後: \($0)" } ?? ""),
            ].joined(separator: "\n")
        }
        return [
            "watch \(ctx.isReachable ? "reachable" : "not reachable")",
            "messages: \(l.messagesSent) sent, \(l.messagesFailed) failed, \(l.messagesReceived) received",
            "start requests: \(l.startsByMessage) by message, \(l.startsByUserInfo) by user info; last \(l.lastStartVia ?? none) → \(l.lastStartResult ?? none)",
            complication,
            "files received: \(l.filesReceived)" + (l.lastFile.map { " — last \($0.name) (\($0.sampleCount ?? 0) samples)" } ?? ""),
            "link errors: \(l.linkErrors)" + (l.lastLinkError.map { " — last \($0)" } ?? ""),
        ].joined(separator: "\n")
    }
}
