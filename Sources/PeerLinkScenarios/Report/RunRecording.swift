import PeerLinkCore
import PeerLinkSim

/// What the HTML report draws of one run, recorded beside the text report: every frame with
/// its send and arrival times, the faults as spans, the other events (kills, restarts, store
/// damage, clock changes, strangers) as marks, when each check ran, and both devices' screens
/// at chosen moments. Only kept when asked for (`sync-sim --html`); recording it does not
/// change the run (see `RunRecorder`).
public struct RunRecording: Sendable {
    /// The scenario's start (times are shown as offsets from it) and the zone its local
    /// date-times are shown in.
    public var startMs: EpochMs
    public var timeZone: String
    public var language: AppLanguage
    /// The run's last instant.
    public var endMs: EpochMs
    public var frames: [FrameRecord] = []
    public var faults: [FaultSpan] = []
    public var marks: [RunMark] = []
    /// When each of the result's checks ran, in the order of `ScenarioResult.checks` (the
    /// checks made at the end, such as the invariants, have no time and are not in it).
    public var checkTimesMs: [EpochMs] = []
    public var moments: [ScreenMoment] = []
    /// Every screen the moments may show, as `role/screen`, in the apps' order.
    public var screens: [String] = []

    public init(startMs: EpochMs, timeZone: String, language: AppLanguage) {
        self.startMs = startMs
        self.timeZone = timeZone
        self.language = language
        endMs = startMs
    }
}

/// A stretch of time with link faults on (partition, loss, latency…), as the runner set them.
public struct FaultSpan: Sendable, Equatable {
    public var fromMs: EpochMs
    public var toMs: EpochMs
    /// The faults, as the timeline writes them (`LinkFaults.description`).
    public var text: String
}

/// An event drawn as a mark on a device's lane (or across both).
public struct RunMark: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case kill, restart, corruption, rollback, clock, stranger, reset
    }
    public var atMs: EpochMs
    public var kind: Kind
    /// The device it happened to; nil for the link.
    public var role: DeviceRole?
    /// The scenario step as written.
    public var text: String
}

/// Both devices' screens at one instant, by `role/screen` (`phone/dashboard`…); a node that
/// is not running has none.
public struct ScreenMoment: Sendable {
    public var atMs: EpochMs
    /// Why this moment was taken: `expect …`, a fault step, or `every 5 min`.
    public var reason: String
    public var screens: [String: String]
}
