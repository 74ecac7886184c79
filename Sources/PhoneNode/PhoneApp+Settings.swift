import PeerLinkCore
import FitnessDomain

/// The settings tab (タブ3): step goal, notification switches, HealthKit connection status and
/// the export button. The settings are one replicated record; each command writes only its
/// own field, so a concurrent change of another field on the watch survives.
extension PhoneApp {
    /// `settings step-goal N` | `settings notifications|weekly-summary|run-detection on|off` | `settings`.
    mutating func settingsCommand(_ w: [String], _ ctx: inout NodeContext) -> CommandReply {
        if w.count == 1 { return show(["settings"], ctx) }
        let usage = L10n.usage("settings step-goal N | settings notifications|weekly-summary|run-detection on|off")(ctx.language)
        guard w.count == 3 else { return .error(usage) }
        let field: String
        let value: PlistValue
        switch w[1] {
        case "step-goal":
            guard let n = Int(w[2]), AppSettings.stepGoalRange.contains(n) else {
                return .error(L10n.phoneStepGoalOutOfRange(AppSettings.stepGoalRange)(ctx.language))
            }
            field = "stepGoal"
            value = .int(Int64(n))
        case "notifications", "weekly-summary", "run-detection":
            guard w[2] == "on" || w[2] == "off" else { return .error(usage) }
            field = ["notifications": "notifications", "weekly-summary": "weeklySummary", "run-detection": "runDetection"][w[1]]!
            value = .bool(w[2] == "on")
        default:
            return .error(usage)
        }
        let key = RecordKey(AppSettings.collection, AppSettings.recordID)
        let before = settings(ctx)
        if case .failure(let refusal) = ctx.set(key, [field: value]) { return .error(L10n.writeRefused(refusal)(ctx.language)) }
        onSettingsChanged(&ctx)
        let after = settings(ctx)
        let text = field == "stepGoal"
            ? "\(L10n.fitnessChangeStepGoal(ctx.language)): \(FitnessFormat.steps(before.stepGoal)(ctx.language)) → \(FitnessFormat.steps(after.stepGoal)(ctx.language))"
            : "\(Self.switchLabel(w[1])(ctx.language)): \(w[2] == "on" ? "ON" : "OFF")"
        return .ok(Self.settingsValue(after), text: text)
    }

    /// Settings changed here or on the watch: notifications follow the switches; the App Group
    /// (and so the widgets) follows the step goal; the watch gets the new snapshot as the
    /// application context.
    mutating func onSettingsChanged(_ ctx: inout NodeContext) {
        publishSettingsContext(&ctx)
        scheduleWeeklySummary(&ctx)
        refreshAppGroup(&ctx)
        reloadFitnessWidgets(&ctx)
    }

    /// A switch's row on the settings screen (seed wording for 通知の ON/OFF).
    static func switchLabel(_ word: String) -> LocalizedText {
        switch word {
        case "weekly-summary": L10n.fitnessWeeklySummaryToggle
        case "run-detection": L10n.fitnessRunDetectionToggle
        default: L10n.fitnessNotificationsToggle
        }
    }

    // MARK: - Views

    /// The settings as data (field names as in the replicated record).
    static func settingsValue(_ s: AppSettings) -> PlistValue {
        [
            "stepGoal": .int(Int64(s.stepGoal)), "energyGoal": .int(Int64(s.activeEnergyGoalKcal)),
            "notifications": .bool(s.notificationsEnabled), "weeklySummary": .bool(s.weeklySummaryEnabled),
            "runDetection": .bool(s.runDetectionEnabled),
        ]
    }

    /// The settings screen as data: settings, authorization, the last export.
    func settingsScreenValue(_ ctx: NodeContext) -> PlistValue {
        var d = Self.settingsValue(settings(ctx)).dictionaryValue ?? [:]
        d["authorization"] = state.auth.authorization.plistValue
        if let r = state.auth.requestedMs { d["authorizationRequested"] = .int(r) }
        d["stepGoalRange"] = [.int(Int64(AppSettings.stepGoalRange.lowerBound)), .int(Int64(AppSettings.stepGoalRange.upperBound))]
        d["exportLabel"] = .string(FitnessCSVExport.buttonLabel(ctx.language))
        if let last = state.exports.last { d["lastExport"] = .string(last.path) }
        return .dictionary(d)
    }

    /// The settings screen as text.
    func settingsScreenText(_ ctx: NodeContext) -> String {
        let l = ctx.language, s = settings(ctx)
        func onOff(_ b: Bool) -> String { b ? "ON" : "OFF" }
        let lines = [
            L10n.fitnessTabSettings(l),
            "\(L10n.fitnessChangeStepGoal(l)): \(FitnessFormat.steps(s.stepGoal)(l))",
            "\(L10n.fitnessNotificationsToggle(l)): \(onOff(s.notificationsEnabled))",
            "\(L10n.fitnessWeeklySummaryToggle(l)): \(onOff(s.weeklySummaryEnabled))",
            "\(L10n.fitnessRunDetectionToggle(l)): \(onOff(s.runDetectionEnabled))",
            state.auth.authorization.text(l),
            FitnessCSVExport.buttonLabel(l) + (state.exports.last.map { ": \($0.path)" } ?? ""),
        ]
        return lines.joined(separator: "\n")
    }
}
