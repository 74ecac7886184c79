
/// What each side tells the other about its app: the inputs of reachability.
public struct AppState: Sendable, Equatable {
    /// The app process is running (foreground or background).
    public var isRunning = true
    /// The app is in the foreground (watch: on screen, wrist up).
    public var isForeground = true
    /// A workout session is prepared or running (watch only): keeps the app running and reachable.
    public var workoutActive = false
    /// The complication is on the active watch face (watch only).
    public var complicationEnabled = true

    public init(isRunning: Bool = true, isForeground: Bool = true, workoutActive: Bool = false, complicationEnabled: Bool = true) {
        self.isRunning = isRunning
        self.isForeground = isForeground
        self.workoutActive = workoutActive
        self.complicationEnabled = complicationEnabled
    }

    /// The watch app can take live messages: foreground, or a workout keeps it at high priority.
    public var watchAppReachable: Bool { isRunning && (isForeground || workoutActive) }

    var flags: UInt8 {
        (isRunning ? 1 : 0) | (isForeground ? 2 : 0) | (workoutActive ? 4 : 0) | (complicationEnabled ? 8 : 0)
    }

    init(flags: UInt8) {
        self.init(isRunning: flags & 1 != 0, isForeground: flags & 2 != 0, workoutActive: flags & 4 != 0, complicationEnabled: flags & 8 != 0)
    }
}
