import PeerLinkCore

/// One day of the export.
public struct FitnessExportRow: Sendable, Hashable {
    public var day: CivilDate
    /// De-duplicated steps, rounded; nil when there is no step data that day.
    public var steps: Int?
    /// De-duplicated active energy in kcal; nil when there is none.
    public var activeEnergyKcal: Double?
    /// Asleep hours of the night ending that morning; nil when there is no sleep data.
    public var sleepHours: Double?

    /// A row from its values.
    public init(day: CivilDate, steps: Int?, activeEnergyKcal: Double?, sleepHours: Double?) {
        self.day = day
        self.steps = steps
        self.activeEnergyKcal = activeEnergyKcal
        self.sleepHours = sleepHours
    }

    /// The CSV fields: `2026-03-29`, `8432`, `342.5`, `7.25`; an empty field for a missing value.
    public var fields: [String] {
        [
            day.description, steps.map(String.init) ?? "",
            activeEnergyKcal.map { FitnessFormat.fixed($0, decimals: FitnessFormat.kcalDecimals) } ?? "",
            sleepHours.map { FitnessFormat.fixed($0, decimals: FitnessFormat.sleepHoursDecimals) } ?? "",
        ]
    }
}

/// The settings screen's "データをエクスポート": the past 30 days as CSV for the share sheet.
///
/// ## Format
/// - Days: today and the 29 days before it, as local days of the given `LocalCalendar`,
///   oldest first. Each day runs from local midnight to the next (23 or 25 h across DST).
/// - Header `date,steps,active_kcal,sleep_hours` (English column names, stable for tools).
/// - `date` is `YYYY-MM-DD`; `steps` an integer (sources de-duplicated by `HealthStatistics`,
///   rounded half away from zero); `active_kcal` one decimal; `sleep_hours` two decimals, the
///   asleep time of the night that ends that morning (`SleepAnalysis`: 18:00 the day before to
///   12:00 that day).
/// - A value with no data (or whose type is not readable) is an empty field, never 0.
/// - RFC 4180 (`CSVWriter`): CRLF after every record including the last, quoting only when a
///   field needs it, UTF-8 without BOM.
public enum FitnessCSVExport {
    /// How many days the export covers (today included).
    public static let dayCount = 30
    /// The header record.
    public static let header = ["date", "steps", "active_kcal", "sleep_hours"]
    /// The share sheet's file name starts with this.
    public static let fileNamePrefix = "fitness-export-"
    /// The share sheet's file extension.
    public static let fileExtension = "csv"
    /// The button label (データをエクスポート).
    public static let buttonLabel = L10n.fitnessExportData

    /// The exported days, oldest first: `today − 29 … today` in `calendar`.
    public static func exportDays(nowMs: EpochMs, calendar: LocalCalendar) -> [CivilDate] {
        let today = calendar.civilDate(nowMs)
        return (0..<dayCount).map { today.adding(days: $0 - (dayCount - 1)) }
    }

    /// One row per exported day.
    public static func makeRows(
        samples: [HealthSample], nowMs: EpochMs, calendar: LocalCalendar,
        authorization: HealthAuthorization = .allGranted, statistics: HealthStatistics = HealthStatistics()
    ) -> [FitnessExportRow] {
        let readable = authorization.readable(samples)
        let days = exportDays(nowMs: nowMs, calendar: calendar)
        guard let first = days.first, let last = days.last else { return [] }
        let steps = statistics.dailyBuckets(of: .steps, in: readable, from: first, through: last, calendar: calendar)
        let energy = statistics.dailyBuckets(of: .activeEnergy, in: readable, from: first, through: last, calendar: calendar)
        let sleep = SleepAnalysis(statistics: statistics)
        return days.indices.map { i in
            FitnessExportRow(
                day: days[i], steps: steps[i].value.map(FitnessFormat.roundedCount), activeEnergyKcal: energy[i].value,
                sleepHours: sleep.summary(of: readable, endingOn: days[i], calendar: calendar)?.asleepHours)
        }
    }

    /// The CSV text of `rows`, header first.
    public static func makeCSV(rows: [FitnessExportRow]) -> String {
        CSVWriter.document([header] + rows.map(\.fields))
    }

    /// The CSV text of the past 30 days.
    public static func makeCSV(
        samples: [HealthSample], nowMs: EpochMs, calendar: LocalCalendar,
        authorization: HealthAuthorization = .allGranted, statistics: HealthStatistics = HealthStatistics()
    ) -> String {
        makeCSV(rows: makeRows(samples: samples, nowMs: nowMs, calendar: calendar, authorization: authorization, statistics: statistics))
    }

    /// The file's bytes (UTF-8, no BOM).
    public static func makeBytes(
        samples: [HealthSample], nowMs: EpochMs, calendar: LocalCalendar,
        authorization: HealthAuthorization = .allGranted, statistics: HealthStatistics = HealthStatistics()
    ) -> [UInt8] {
        Array(makeCSV(samples: samples, nowMs: nowMs, calendar: calendar, authorization: authorization, statistics: statistics).utf8)
    }

    /// `fitness-export-YYYY-MM-DD.csv` with today's local date.
    public static func fileName(nowMs: EpochMs, calendar: LocalCalendar) -> String {
        "\(fileNamePrefix)\(calendar.civilDate(nowMs)).\(fileExtension)"
    }
}

// MARK: - RFC 4180 writer

/// RFC 4180 CSV text: fields separated by commas, records ended by CRLF (the last one too),
/// a field quoted when it contains a comma, a double quote, CR or LF, and a double quote inside
/// a quoted field written twice. Output is UTF-8 with no byte-order mark.
public enum CSVWriter {
    /// The record terminator RFC 4180 prescribes.
    public static let lineEnding = "\r\n"

    /// True when `field` must be quoted.
    public static func needsQuoting(_ field: String) -> Bool {
        field.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }
    }

    /// One field, quoted when needed: `a,b` → `"a,b"`, `say "hi"` → `"say ""hi"""`.
    public static func escape(_ field: String) -> String {
        guard needsQuoting(field) else { return field }
        var out = "\""
        for ch in field.unicodeScalars {
            if ch == "\"" { out += "\"\"" } else { out.unicodeScalars.append(ch) }
        }
        return out + "\""
    }

    /// One record with its CRLF.
    public static func record(_ fields: [String]) -> String {
        fields.map(escape).joined(separator: ",") + lineEnding
    }

    /// The whole document: every record, each ended by CRLF.
    public static func document(_ records: [[String]]) -> String {
        records.map(record).joined()
    }

    /// The document as UTF-8 bytes.
    public static func bytes(_ records: [[String]]) -> [UInt8] {
        Array(document(records).utf8)
    }
}
