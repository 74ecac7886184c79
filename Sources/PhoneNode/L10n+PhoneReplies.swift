import PeerLinkCore
import FitnessDomain
import CountdownDomain

/// The phone app's command replies and refusals, in ja and en. The seeds give no wording for
/// them; the Japanese follows the seeds' style and reuses their words (歩数, 消費カロリー, 心拍数,
/// 睡眠, 通知の ON/OFF…). Times are local date-times, never epoch milliseconds.
extension L10n {
    // MARK: - Samples

    /// A health sample's kind: "歩数" / "Steps", "睡眠（コア）" / "Sleep (Core)".
    static func phoneSampleKind(_ kind: HealthSampleKind) -> LocalizedText {
        switch kind {
        case .steps: fitnessSteps
        case .activeEnergy: fitnessActiveCalories
        case .heartRate: fitnessHeartRate
        case .sleep(let stage):
            LocalizedText(ja: "\(fitnessSleep.ja)（\(fitnessSleepStage(stage).ja)）", en: "\(fitnessSleep.en) (\(fitnessSleepStage(stage).en))")
        }
    }

    /// Where a sample came from: "iPhone" / "Apple Watch".
    static func phoneSource(_ source: DeviceRole) -> String { source == .phone ? "iPhone" : "Apple Watch" }

    /// A sample was stored: "歩数 8,432（iPhone）2026-06-01 07:00:00–07:10:00 [ph-…]".
    static func phoneSampleStored(kind: HealthSampleKind, value: String, source: DeviceRole, span: String, id: String) -> LocalizedText {
        let k = phoneSampleKind(kind), s = phoneSource(source)
        return LocalizedText(ja: "\(k.ja) \(value)（\(s)）\(span) [\(id)]", en: "\(k.en) \(value) (\(s)) \(span) [\(id)]")
    }

    /// A sample value out of its range.
    static func phoneSampleOutOfRange(_ kind: HealthSampleKind, low: Double, high: Double) -> LocalizedText {
        let lo = FitnessFormat.grouped(Int(low)), hi = FitnessFormat.grouped(Int(high))
        switch kind {
        case .steps: return LocalizedText(ja: "歩数は1サンプルあたり\(lo)〜\(hi)歩で入力してください", en: "steps must be from \(lo) to \(hi) per sample")
        case .activeEnergy:
            return LocalizedText(ja: "消費カロリーは1サンプルあたり\(lo)〜\(hi) kcalで入力してください", en: "energy must be from \(lo) to \(hi) kcal per sample")
        default: return LocalizedText(ja: "心拍数は\(lo)〜\(hi) bpmで入力してください", en: "heart rate must be from \(lo) to \(hi) bpm")
        }
    }

    /// A time word that is not a time.
    static func phoneBadTime(_ word: String) -> LocalizedText {
        LocalizedText(ja: "時刻が読めません: \(word)（HH:MM、HH:MM:SS、オフセット付きのISO日時、またはエポックミリ秒）",
                      en: "'\(word)' is not a time (HH:MM, HH:MM:SS, an ISO date-time with an offset, or epoch ms)")
    }

    /// `--from` not before `--to`.
    static let phoneEmptyInterval = LocalizedText(ja: "区間が空です: --from は --to より前にしてください",
                                                  en: "the interval is empty: --from must be before --to")

    // MARK: - App and widgets

    /// `app foreground|background`.
    static func phoneAppMoved(foreground: Bool) -> LocalizedText {
        foreground ? LocalizedText(ja: "アプリをフォアグラウンドにしました", en: "The app is in the foreground")
            : LocalizedText(ja: "アプリをバックグラウンドにしました", en: "The app is in the background")
    }

    /// A widget with nothing to tap yet.
    static func phoneWidgetEmpty(_ family: String) -> LocalizedText {
        LocalizedText(ja: "\(family) ウィジェットにはまだ表示がありません", en: "the \(family) widget shows no entry yet")
    }

    /// A widget tap opened the app: "fitness://dashboard を開きました: ダッシュボード".
    static func phoneOpened(_ url: String, screen: String) -> LocalizedText {
        let name: LocalizedText
        if screen == "dashboard" {
            name = fitnessTabDashboard
        } else if screen == "goals" {
            name = phoneGoals
        } else if screen.hasPrefix("goal ") {
            let id = screen.dropFirst(5)
            name = LocalizedText(ja: "目標 \(id)", en: "goal \(id)")
        } else {
            name = LocalizedText(ja: "ダッシュボード（不明なリンク）", en: "dashboard (unknown link)")
        }
        return LocalizedText(ja: "\(url) を開きました: \(name.ja)", en: "Opened \(url): \(name.en)")
    }

    // MARK: - Motion and the live workout

    /// A motion sample older than the previous one.
    static func phoneMotionOutOfOrder(_ at: String) -> LocalizedText {
        LocalizedText(ja: "\(at) のモーションは前のものより古いため無視しました", en: "motion sample at \(at) is older than the previous one: ignored")
    }

    /// The reply to a motion sample: "モーション: ランニング（信頼度: 高）".
    static func phoneMotion(_ flags: MotionActivityFlags, _ confidence: MotionConfidence) -> LocalizedText {
        let names: [(MotionActivityFlags, String, String)] = [
            (.stationary, "静止", "stationary"), (.walking, "歩行", "walking"), (.running, "ランニング", "running"),
            (.automotive, "自動車", "automotive"), (.cycling, "サイクリング", "cycling"), (.unknown, "不明", "unknown"),
        ]
        let present = names.filter { flags.contains($0.0) }
        let c: (String, String) = switch confidence {
        case .low: ("低", "low")
        case .medium: ("中", "medium")
        case .high: ("高", "high")
        }
        return LocalizedText(ja: "モーション: \(present.map(\.1).joined(separator: "+"))（信頼度: \(c.0)）",
                             en: "motion \(present.map(\.2).joined(separator: "+")) \(c.1)")
    }

    /// A run was detected while the prompt is switched off.
    static let phoneRunDetectedSilently = LocalizedText(ja: "ランニングを検出しました（通知はオフ）", en: "run detected (notifications off)")

    /// `live STATE` with an unknown state.
    static func phoneUnknownWorkoutState(_ word: String) -> LocalizedText {
        LocalizedText(ja: "不明なワークアウトの状態です: \(word)（notStarted、prepared、running、paused、stopped、ended）",
                      en: "unknown workout state '\(word)' (notStarted, prepared, running, paused, stopped, ended)")
    }

    /// The dashboard's line about a workout that ended on the watch.
    static let phoneWorkoutEnded = LocalizedText(ja: "ワークアウト終了", en: "Workout ended")

    // MARK: - Notifications, export, settings

    /// No delivered notification waits for that answer.
    static func phoneNoNotification(_ id: String) -> LocalizedText {
        LocalizedText(ja: "応答を待っている通知 \(id) はありません", en: "no delivered notification '\(id)' is waiting for an answer")
    }

    /// A notification was answered.
    static func phoneNotificationAnswered(_ id: String, accepted: Bool) -> LocalizedText {
        LocalizedText(ja: "通知 \(id) に応答しました: \(accepted ? "開く" : "閉じる")", en: "\(id): \(accepted ? "accept" : "dismiss")")
    }

    /// The answer shown on the notifications screen.
    static func phoneAnswer(_ response: String) -> LocalizedText {
        response == "accept" ? LocalizedText(ja: "開いた", en: "accepted") : LocalizedText(ja: "閉じた", en: "dismissed")
    }

    /// The run prompt accepted: the watch is asked to start, credited from the run's start.
    static func phoneStartingWorkout(from start: String) -> LocalizedText {
        LocalizedText(ja: "\(phoneStartingWorkoutOnWatch.ja)（\(start)から記録）", en: "\(phoneStartingWorkoutOnWatch.en) (counting from \(start))")
    }

    /// No export folder.
    static let phoneNoExportFolder = LocalizedText(ja: "このノードにはエクスポート先のフォルダがありません",
                                                   en: "this node has no export folder")

    /// The export could not be written.
    static func phoneExportFailed(_ reason: String) -> LocalizedText {
        LocalizedText(ja: "\(fitnessExportData.ja): 書き出せませんでした（\(reason)）", en: "\(fitnessExportData.en): \(reason)")
    }

    /// An effect on the effects screen: what the app asked of the link, without its raw payload.
    static func phoneEffect(_ effect: PhoneEffect, _ calendar: LocalCalendar) -> LocalizedText {
        switch effect {
        case .startWatchWorkout(let activity, let startMs):
            let a = PhoneApp.activityName(activity), t = PhoneTime.dateTime(startMs, calendar)
            return LocalizedText(ja: "ウォッチで\(a.ja)を開始（\(t)から）", en: "start \(a.en.lowercased()) on the watch (from \(t))")
        case .pushComplication(let snapshot, _):
            let steps = FitnessFormat.steps(snapshot.todaySteps)
            return LocalizedText(ja: "コンプリケーションを送信（今日の歩数 \(steps.ja)）", en: "complication push (today's steps \(steps.en))")
        }
    }

    /// "エフェクトはありません" / "no effects".
    static let phoneNoEffects = LocalizedText(ja: "エフェクトはありません", en: "no effects")

    // MARK: - Complication and link

    /// `complication push` with no App Group snapshot.
    static let phoneNoSnapshot = LocalizedText(ja: "送信するApp Groupのデータがありません", en: "no App Group snapshot to push")

    /// `complication push`: what the push became.
    static func phoneComplicationPushed(_ outcome: String, remaining: Int) -> LocalizedText {
        LocalizedText(ja: "コンプリケーションを送信しました → \(outcome)（今日の残り\(remaining)回）",
                      en: "complication push → \(outcome) (\(remaining) left today)")
    }

    /// `complication`: the budget and the pushes.
    static func phoneComplicationState(enabled: Bool, remaining: Int, sent: Int, fallback: Int, failed: Int) -> LocalizedText {
        LocalizedText(
            ja: "コンプリケーション: \(enabled ? "文字盤にあり" : "文字盤になし")、今日の残り\(remaining)回。送信 \(sent)、通常のユーザー情報として \(fallback)、失敗 \(failed)",
            en: "Complication: \(enabled ? "on the face" : "not on the face"), \(remaining) left today; \(sent) pushed, \(fallback) as user info, \(failed) failed")
    }

    /// What the watch answered an accepted run prompt, as the person is told it later:
    /// started, started after saving the stopped workout, or not started and why.
    static func phoneWatchStartAnswer(_ reply: [String: PlistValue], language: AppLanguage) -> String {
        let other = reply["workoutID"]?.stringValue ?? "—"
        if reply["error"] != nil {
            let state = reply["state"]?.stringValue.flatMap(WorkoutSessionState.init(rawValue:))
            let why = state.map {
                LocalizedText(ja: "ワークアウト \(other) が「\(PhoneApp.stateName($0).ja)」です", en: "workout \(other) is \($0.rawValue)")
            } ?? LocalizedText(ja: reply["error"]?.stringValue ?? "", en: reply["error"]?.stringValue ?? "")
            return LocalizedText(ja: "Apple Watchはワークアウトを開始しませんでした: \(why.ja)",
                                 en: "The Apple Watch did not start the workout: \(why.en)")(language)
        }
        if let saved = reply["saved"]?.stringValue {
            return LocalizedText(ja: "Apple Watch: 停止していたワークアウト \(saved) を保存して、ランニングのワークアウトを開始しました",
                                 en: "Apple Watch: saved the stopped workout \(saved) and started the running workout")(language)
        }
        return LocalizedText(ja: "Apple Watch: ランニングのワークアウトを開始しました", en: "Apple Watch: started the running workout")(language)
    }
}
