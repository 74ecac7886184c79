import Foundation
import PeerLinkCore
import FitnessDomain

/// Shared fixtures for the fitness calculation tests: calendars, UTC instants, sample builders
/// and a seeded generator.
enum HealthFixture {
    static let tokyo = LocalCalendar(identifier: "Asia/Tokyo")!
    static let berlin = LocalCalendar(identifier: "Europe/Berlin")!
    static let losAngeles = LocalCalendar(identifier: "America/Los_Angeles")!
    static let utc = LocalCalendar(identifier: "UTC")!

    static let minuteMs: Int64 = 60_000
    static let hourMs: Int64 = 3_600_000

    /// The instant of a UTC wall time, computed without Foundation (hand-checkable).
    static func utcMs(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ min: Int = 0) -> EpochMs {
        Int64(CivilDate(year: y, month: m, day: d).daysSinceEpoch) * 86_400_000 + Int64(h) * hourMs + Int64(min) * minuteMs
    }

    /// The instant of a local wall time in `calendar`.
    static func local(_ calendar: LocalCalendar, _ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ min: Int = 0) -> EpochMs {
        calendar.instant(CivilDate(year: y, month: m, day: d), hour: h, minute: min)
    }

    /// A sample with a generated id.
    static func sample(
        _ kind: HealthSampleKind, _ source: DeviceRole, _ startMs: EpochMs, _ endMs: EpochMs, _ value: Double = 1
    ) -> HealthSample {
        HealthSample(id: "\(kind.name)-\(source.rawValue)-\(startMs)-\(endMs)-\(value)", kind: kind, source: source, startMs: startMs, endMs: endMs, value: value)
    }

    /// A sample from minute `from` to minute `to` after `base`.
    static func minutes(
        _ kind: HealthSampleKind, _ source: DeviceRole, _ from: Int64, _ to: Int64, _ value: Double, base: EpochMs = 0
    ) -> HealthSample {
        sample(kind, source, base + from * minuteMs, base + to * minuteMs, value)
    }

    /// A heart-rate reading.
    static func heartRate(_ source: DeviceRole, _ atMs: EpochMs, _ bpm: Double) -> HealthSample {
        sample(.heartRate, source, atMs, atMs, bpm)
    }

    /// A sleep sample between two local wall times (the end may be on the next day).
    static func sleep(
        _ stage: SleepStage, _ source: DeviceRole, _ calendar: LocalCalendar,
        _ startDay: CivilDate, _ sh: Int, _ sm: Int, _ endDay: CivilDate, _ eh: Int, _ em: Int
    ) -> HealthSample {
        sample(.sleep(stage), source, calendar.instant(startDay, hour: sh, minute: sm), calendar.instant(endDay, hour: eh, minute: em))
    }
}

