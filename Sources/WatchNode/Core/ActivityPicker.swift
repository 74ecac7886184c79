import PeerLinkCore
import FitnessDomain
import CountdownDomain

/// The workout-type picker turned by the Digital Crown (seed: Digital Crown でワークアウト種類を
/// スクロール選択), with the indoor/outdoor choice.
///
/// The crown scrolls `WorkoutActivityType.allCases` in order (running → walking → cycling)
/// and is clamped at both ends: turning past cycling stays on cycling, turning back past
/// running stays on running. It never wraps.
public struct ActivityPicker: Sendable, Hashable {
    /// The activity the list is on.
    public private(set) var activity: WorkoutActivityType
    /// Indoor or outdoor (the seed's code uses `.outdoor`).
    public var location: WorkoutLocation

    /// A picker on `activity` (running by default, the top of the list), outdoors.
    public init(activity: WorkoutActivityType = .running, location: WorkoutLocation = .outdoor) {
        self.activity = activity
        self.location = location
    }

    // MARK: - Input

    /// Turns the crown by `detents` (`+1` down the list, `-1` up); returns whether the
    /// selection moved (false at an end).
    @discardableResult
    public mutating func onCrown(_ detents: Int) -> Bool {
        let all = WorkoutActivityType.allCases
        let index = all.firstIndex(of: activity)!
        // Clamp the step first so a huge turn cannot overflow.
        let step = max(-all.count, min(all.count, detents))
        let target = max(0, min(all.count - 1, index + step))
        guard target != index else { return false }
        activity = all[target]
        return true
    }

    /// Chooses indoor or outdoor; returns whether it changed.
    @discardableResult
    public mutating func select(location newLocation: WorkoutLocation) -> Bool {
        guard newLocation != location else { return false }
        location = newLocation
        return true
    }

    /// The configuration a workout started from this picker gets.
    public var configuration: WorkoutConfiguration { WorkoutConfiguration(activity: activity, location: location) }

    // MARK: - Rendering

    /// The picker as text: one line per activity, the selected one marked, then the location.
    /// ```
    /// ▶ ランニング
    ///   ウォーキング
    ///   サイクリング
    /// 屋外
    /// ```
    public func text(_ language: AppLanguage) -> String {
        let rows = WorkoutActivityType.allCases.map { ($0 == activity ? "▶ " : "  ") + $0.watchTitle(language) }
        return (rows + [location.watchTitle(language)]).joined(separator: "\n")
    }

    /// The picker as JSON: the options in crown order, the selection and the location.
    public func jsonValue() -> PlistValue {
        [
            "screen": "activityPicker", "activity": .string(activity.rawValue), "location": .string(location.rawValue),
            "options": .array(WorkoutActivityType.allCases.map { .string($0.rawValue) }),
        ]
    }
}
