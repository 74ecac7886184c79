import PeerLinkCore

/// The watch app's replies and refusals as people read them, in ja and en. The seed gives no
/// wording for them; the Japanese follows the seed's style and uses its words (開始, 一時停止,
/// 停止, 心拍数, 消費カロリー, 経過時間). Times are local date-times, never epoch milliseconds.
/// The types' `description`s stay English: they are what the log says.
extension L10n {
    /// A session call by name: "一時停止" / "pause".
    static func watchCallName(_ call: String) -> LocalizedText {
        switch call {
        case "prepare": LocalizedText(ja: "準備", en: "prepare")
        case "start": LocalizedText(ja: "開始", en: "start")
        case "pause": LocalizedText(ja: "一時停止", en: "pause")
        case "resume": LocalizedText(ja: "再開", en: "resume")
        case "stop": LocalizedText(ja: "停止", en: "stop")
        case "end": LocalizedText(ja: "終了", en: "end")
        case "discard": LocalizedText(ja: "破棄", en: "discard")
        default: LocalizedText(ja: call, en: call)
        }
    }

    /// "一時停止できません: …" / "cannot pause: …".
    static func watchCannot(_ call: String, _ why: LocalizedText) -> LocalizedText {
        LocalizedText(ja: "\(watchCallName(call).ja)できません: \(why.ja)", en: "cannot \(call): \(why.en)")
    }

    /// "記録しませんでした: …" / "rejected: …".
    static func watchRejected(_ why: String, _ language: AppLanguage) -> String {
        language == .ja ? "記録しませんでした: \(why)" : "rejected: \(why)"
    }

    /// A workout HealthKit ended (another session started).
    static func watchWorkoutEnded(_ id: String, _ failure: WorkoutSessionFailure) -> LocalizedText {
        let f = failure.message
        return LocalizedText(ja: "ワークアウト \(id) は終了しました: \(f.ja)", en: "workout \(id) ended: \(f.en)")
    }

    /// The reply to `workout end`.
    static func watchWorkoutSaved(_ id: String, samples: Int, elapsed: String) -> LocalizedText {
        LocalizedText(ja: "ワークアウト \(id) を保存しました: サンプル \(samples)件、経過時間 \(elapsed)",
                      en: "workout \(id) saved: \(samples) samples, elapsed \(elapsed)")
    }

    /// No workout session.
    static let watchNoActiveWorkout = LocalizedText(ja: "ワークアウトはありません", en: "no active workout")

    /// An activity type that does not exist.
    static func watchUnknownActivity(_ word: String) -> LocalizedText {
        LocalizedText(ja: "不明なワークアウトの種類です: \(word)（running、walking、cycling）",
                      en: "unknown activity type '\(word)' (running, walking, cycling)")
    }

    /// A malformed `--over` duration.
    static func watchBadDuration(_ word: String) -> LocalizedText {
        LocalizedText(ja: "時間が読めません: \(word)（例: 30s、5m、1h30m）", en: "bad duration '\(word)' (e.g. 30s, 5m, 1h30m)")
    }

    /// A steps sample out of range.
    static func watchStepsOutOfRange(_ n: Int, max: Int) -> LocalizedText {
        LocalizedText(ja: "記録しませんでした: 1サンプルの歩数は0〜\(WatchFormat.grouped(max))歩です（\(n)）",
                      en: "rejected: \(n) steps is outside 0…\(max) for one sample")
    }

    /// "ワークアウトを復元できませんでした: …" / "workout not recovered: …".
    static func watchNotRecovered(_ reason: String) -> LocalizedText {
        LocalizedText(ja: "ワークアウトを復元できませんでした: \(reason)", en: "workout not recovered: \(reason)")
    }

    // MARK: - Extended runtime and presence

    /// An extended runtime kind: "マインドフルネス" / "mindfulness".
    static func watchRuntimeKind(_ kind: ExtendedRuntimeKind) -> LocalizedText {
        switch kind {
        case .selfCare: LocalizedText(ja: "セルフケア", en: "self-care")
        case .mindfulness: LocalizedText(ja: "マインドフルネス", en: "mindfulness")
        case .physicalTherapy: LocalizedText(ja: "理学療法", en: "physical-therapy")
        case .smartAlarm: LocalizedText(ja: "スマートアラーム", en: "smart-alarm")
        }
    }

    /// The app's presence: foreground, background, wrist down.
    static func watchPresence(_ p: WatchAppPresence) -> LocalizedText {
        switch p {
        case .foreground: LocalizedText(ja: "フォアグラウンド", en: "foreground")
        case .background: LocalizedText(ja: "バックグラウンド", en: "background")
        case .wristDown: LocalizedText(ja: "手首を下げた状態", en: "wrist-down")
        }
    }

    /// `show app`: "フォアグラウンド・実行中・iPhoneに到達可能" (+ the runtime session until when).
    static func watchAppLine(_ presence: WatchAppPresence, running: Bool, reachable: Bool, runtime: (ExtendedRuntimeKind, String)?) -> LocalizedText {
        let p = watchPresence(presence)
        let r = runtime.map { (k, until) in
            let n = watchRuntimeKind(k)
            return LocalizedText(ja: "、延長ランタイム \(n.ja)（\(until)まで）", en: "; runtime \(n.en) until \(until)")
        }
        return LocalizedText(
            ja: "\(p.ja)・\(running ? "実行中" : "一時停止中（サスペンド）")・\(reachable ? "iPhoneに到達可能" : "iPhoneに到達不可")\(r?.ja ?? "")",
            en: "\(p.en), \(running ? "running" : "suspended"), \(reachable ? "reachable" : "not reachable")\(r?.en ?? "")")
    }

    /// The complication's newer value waiting for budget.
    static func watchComplicationPending(_ label: String) -> LocalizedText {
        LocalizedText(ja: "（保留中: \(label)）", en: " (pending \(label))")
    }
}

// MARK: - Refusals for people

extension WorkoutSessionError {
    /// The refusal in `language`, times local to `calendar`.
    public func message(_ language: AppLanguage, _ calendar: LocalCalendar) -> String {
        switch self {
        case .illegalTransition(let call, let state) where state == .ended:
            L10n.watchCannot(call.rawValue, LocalizedText(
                ja: "このワークアウトは終了しています（終了したワークアウトは再開できません）",
                en: "session is ended (an ended session cannot be restarted)"))(language)
        case .illegalTransition(let call, let state):
            L10n.watchCannot(call.rawValue, LocalizedText(ja: "ワークアウトは「\(state.watchTitle.ja)」です", en: "session is \(state.rawValue)"))(language)
        case .timeWentBackwards(let call, let at, let last):
            LocalizedText(
                ja: "\(L10n.watchCallName(call.rawValue).ja)できません: \(calendar.dateTimeText(at)) はワークアウトの最後の記録 \(calendar.dateTimeText(last)) より前です",
                en: "cannot \(call.rawValue) at \(calendar.dateTimeText(at)): before the session's last event at \(calendar.dateTimeText(last))")(language)
        }
    }
}

extension WorkoutBuilderError {
    /// The refusal in `language`, times local to `calendar`.
    public func message(_ language: AppLanguage, _ calendar: LocalCalendar) -> String {
        let t: LocalizedText
        switch self {
        case .collectionAlreadyBegun: t = LocalizedText(ja: "記録はすでに始まっています", en: "collection has already begun")
        case .collectionNotBegun: t = LocalizedText(ja: "記録がまだ始まっていません", en: "collection has not begun")
        case .collectionAlreadyEnded: t = LocalizedText(ja: "記録はすでに終わっています", en: "collection has already ended")
        case .collectionNotEnded: t = LocalizedText(ja: "保存できません: 記録がまだ終わっていません", en: "cannot finish: collection has not ended")
        case .alreadyFinished: t = LocalizedText(ja: "ワークアウトはすでに保存されています", en: "workout already finished")
        case .endBeforeLastEvent(let e, let l):
            t = LocalizedText(ja: "\(calendar.dateTimeText(e)) に記録を終えられません: \(calendar.dateTimeText(l)) より前です",
                              en: "cannot end collection at \(calendar.dateTimeText(e)): before \(calendar.dateTimeText(l))")
        case .statisticNotDefined(let s, let k):
            t = LocalizedText(ja: "\(k) では \(s.rawValue) を計算できません", en: description)
        case .unsupportedKind(let k): t = LocalizedText(ja: "ワークアウトでは \(k) を記録しません", en: "the workout builder does not collect \(k)")
        }
        return t(language)
    }
}

extension WorkoutRefusal {
    /// The refusal in `language`, times local to `calendar`.
    public func message(_ language: AppLanguage, _ calendar: LocalCalendar) -> String {
        switch self {
        case .session(let e): e.message(language, calendar)
        case .builder(let e): e.message(language, calendar)
        case .noActiveSession(let call):
            L10n.watchCannot(call, LocalizedText(ja: "ワークアウトがありません", en: "no active workout session"))(language)
        case .invalidWorkoutID(let id):
            LocalizedText(ja: "ワークアウトIDが正しくありません: \"\(id)\"（1〜\(WorkoutManager.maxWorkoutIDLength)バイト）",
                          en: "invalid workout id \"\(id)\" (1…\(WorkoutManager.maxWorkoutIDLength) bytes)")(language)
        case .sessionAlreadyActive(let id):
            LocalizedText(ja: "復元できません: ワークアウト \(id) は進行中です", en: "cannot recover: workout \(id) is already active")(language)
        case .snapshotUnusable(let e):
            LocalizedText(ja: "復元できません: \(e.description)", en: "cannot recover: \(e.description)")(language)
        }
    }
}

extension WorkoutSessionFailure {
    /// The failure as people read it.
    public var message: LocalizedText {
        switch self {
        case .anotherWorkoutSession:
            LocalizedText(ja: "別のワークアウトが始まりました（HKErrorAnotherWorkoutSession）",
                          en: "another workout session started (HKErrorAnotherWorkoutSession)")
        }
    }
}

extension SampleRejectionReason {
    /// Why the sample was not recorded, in `language`, times local to `calendar`.
    public func message(_ language: AppLanguage, _ calendar: LocalCalendar) -> String {
        let t: LocalizedText
        switch self {
        case .heartRateOutOfRange(let bpm):
            t = LocalizedText(ja: "心拍数 \(bpm) bpm は範囲外です（0 < bpm ≤ \(Int(SampleLimits.maxHeartRateBpm))）", en: description)
        case .energyOutOfRange(let kcal):
            t = LocalizedText(ja: "消費カロリー \(kcal) kcal は範囲外です（0〜\(WatchFormat.grouped(Int(SampleLimits.maxEnergyKcalPerSample))) kcal）",
                              en: description)
        case .notFinite: t = LocalizedText(ja: "数値ではありません", en: description)
        case .endsBeforeStart(let s, let e):
            t = LocalizedText(ja: "サンプルの終わり \(calendar.dateTimeText(e)) が始まり \(calendar.dateTimeText(s)) より前です",
                              en: "sample ends at \(calendar.dateTimeText(e)), before it starts at \(calendar.dateTimeText(s))")
        case .unsupportedKind(let k): t = LocalizedText(ja: "ワークアウトでは \(k) を記録しません", en: description)
        case .collectionNotBegun: t = LocalizedText(ja: "記録がまだ始まっていません", en: description)
        case .beforeCollection(let s):
            t = LocalizedText(ja: "サンプルが記録の開始 \(calendar.dateTimeText(s)) より前です",
                              en: "sample is before the collection began at \(calendar.dateTimeText(s))")
        case .collectionEnded(let e):
            t = LocalizedText(ja: "記録は \(calendar.dateTimeText(e)) に終わっています（センサーはオフです）",
                              en: "collection ended at \(calendar.dateTimeText(e)) (sensors off)")
        case .duringPause: t = LocalizedText(ja: "ワークアウトは一時停止中です", en: description)
        case .tooManySamples(let n): t = LocalizedText(ja: "ワークアウトのサンプルはすでに \(n)件あります", en: description)
        }
        return t(language)
    }
}
