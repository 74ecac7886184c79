import Testing
@testable import PeerLinkCore
@testable import FitnessDomain

/// The 30-day export, byte for byte, and the RFC 4180 writer.
@Suite struct CSVExportTests {
    let tokyo = HealthFixture.tokyo
    /// Tuesday 2026-03-31 20:00 JST.
    var now: EpochMs { HealthFixture.local(tokyo, 2026, 3, 31, 20) }

    func at(_ d: Int, _ h: Int, _ m: Int = 0) -> EpochMs { HealthFixture.local(tokyo, 2026, 3, d, h, m) }

    var samples: [HealthSample] {
        [
            HealthFixture.sample(.steps, .phone, HealthFixture.local(tokyo, 2026, 3, 1, 12), HealthFixture.local(tokyo, 2026, 3, 1, 13), 999),
            HealthFixture.sample(.steps, .phone, at(2, 10), at(2, 10, 30), 1234),
            // Watch 10:00–10:10 1,000 and phone 10:05–10:15 600 → 1,300.
            HealthFixture.sample(.steps, .watch, at(15, 10), at(15, 10, 10), 1000),
            HealthFixture.sample(.steps, .phone, at(15, 10, 5), at(15, 10, 15), 600),
            HealthFixture.sample(.activeEnergy, .watch, at(15, 10), at(15, 10, 10), 12.25),
            HealthFixture.sample(.activeEnergy, .phone, at(20, 9), at(20, 9, 5), 0.04),
            // 400 minutes asleep, the night ending on the 10th.
            HealthFixture.sample(.sleep(.asleepUnspecified), .phone, at(9, 23), at(10, 5, 40)),
            // 7 h 15 min asleep, the night ending on the 31st.
            HealthFixture.sample(.sleep(.asleepCore), .watch, at(30, 23), at(31, 6, 15)),
            HealthFixture.sample(.steps, .phone, at(31, 8), at(31, 9), 8432.4),
            HealthFixture.sample(.activeEnergy, .watch, at(31, 8), at(31, 9), 342.46),
        ]
    }

    @Test func exportMatchesTheHandWrittenFile() {
        let expected =
            "date,steps,active_kcal,sleep_hours\r\n"
            + "2026-03-02,1234,,\r\n"
            + "2026-03-03,,,\r\n"
            + "2026-03-04,,,\r\n"
            + "2026-03-05,,,\r\n"
            + "2026-03-06,,,\r\n"
            + "2026-03-07,,,\r\n"
            + "2026-03-08,,,\r\n"
            + "2026-03-09,,,\r\n"
            + "2026-03-10,,,6.67\r\n"
            + "2026-03-11,,,\r\n"
            + "2026-03-12,,,\r\n"
            + "2026-03-13,,,\r\n"
            + "2026-03-14,,,\r\n"
            + "2026-03-15,1300,12.3,\r\n"
            + "2026-03-16,,,\r\n"
            + "2026-03-17,,,\r\n"
            + "2026-03-18,,,\r\n"
            + "2026-03-19,,,\r\n"
            + "2026-03-20,,0.0,\r\n"
            + "2026-03-21,,,\r\n"
            + "2026-03-22,,,\r\n"
            + "2026-03-23,,,\r\n"
            + "2026-03-24,,,\r\n"
            + "2026-03-25,,,\r\n"
            + "2026-03-26,,,\r\n"
            + "2026-03-27,,,\r\n"
            + "2026-03-28,,,\r\n"
            + "2026-03-29,,,\r\n"
            + "2026-03-30,,,\r\n"
            + "2026-03-31,8432,342.5,7.25\r\n"
        let bytes = FitnessCSVExport.makeBytes(samples: samples, nowMs: now, calendar: tokyo)
        #expect(bytes == Array(expected.utf8))
        #expect(FitnessCSVExport.makeRows(samples: samples, nowMs: now, calendar: tokyo).count == 30)
        // The header's line ending, as bytes: …s (0x73), CR, LF, then "2" of the first date.
        #expect(Array(bytes[33...36]) == [0x73, 0x0D, 0x0A, 0x32])
    }

    @Test func unreadableTypeExportsEmptyFieldsNotZeros() {
        var auth = HealthAuthorization.allGranted
        auth.set(.denied, for: .steps)
        let rows = FitnessCSVExport.makeRows(samples: samples, nowMs: now, calendar: tokyo, authorization: auth)
        #expect(rows.last?.fields == ["2026-03-31", "", "342.5", "7.25"])
    }

    @Test func daysFollowTheLocalCalendarAcrossDST() {
        let berlin = HealthFixture.berlin
        let samples = [
            // 23:30 CEST on 03-29 is on the 29th; 00:30 CEST on 03-30 is on the 30th.
            HealthFixture.sample(.steps, .phone, HealthFixture.utcMs(2026, 3, 29, 21, 30), HealthFixture.utcMs(2026, 3, 29, 21, 40), 100),
            HealthFixture.sample(.steps, .phone, HealthFixture.utcMs(2026, 3, 29, 22, 30), HealthFixture.utcMs(2026, 3, 29, 22, 40), 200),
        ]
        let rows = FitnessCSVExport.makeRows(samples: samples, nowMs: HealthFixture.local(berlin, 2026, 3, 30, 12), calendar: berlin)
        #expect(rows.first?.day == CivilDate(year: 2026, month: 3, day: 1))
        #expect(rows.suffix(2).map(\.steps) == [100, 200])
    }

    @Test func fileNameAndLabel() {
        #expect(FitnessCSVExport.fileName(nowMs: now, calendar: tokyo) == "fitness-export-2026-03-31.csv")
        // 2026-03-31 20:00 JST is still the 31st in Tokyo but 03-31 11:00 UTC; 16:00 UTC is 04-01 in Tokyo.
        #expect(FitnessCSVExport.fileName(nowMs: HealthFixture.utcMs(2026, 3, 31, 16), calendar: tokyo) == "fitness-export-2026-04-01.csv")
        #expect(FitnessCSVExport.buttonLabel(.ja) == "データをエクスポート")
        #expect(L10n.fitnessExportData(.en) == "Export data")
    }

    // MARK: - RFC 4180

    @Test func writerQuotesOnlyWhatNeedsQuoting() {
        let doc = CSVWriter.document([
            ["id", "note"], ["1", "a,b"], ["2", "say \"hi\""], ["3", "line1\nline2"], ["4", "cr\rend"], ["5", "日本語"], ["6", ""],
        ])
        let expected =
            "id,note\r\n" + "1,\"a,b\"\r\n" + "2,\"say \"\"hi\"\"\"\r\n" + "3,\"line1\nline2\"\r\n" + "4,\"cr\rend\"\r\n"
            + "5,日本語\r\n" + "6,\r\n"
        #expect(Array(doc.utf8) == Array(expected.utf8))
        #expect(Array(CSVWriter.bytes([["日本語"]])) == [0xE6, 0x97, 0xA5, 0xE6, 0x9C, 0xAC, 0xE8, 0xAA, 0x9E, 0x0D, 0x0A])
        #expect(CSVWriter.escape("\"") == "\"\"\"\"")
        #expect(!CSVWriter.needsQuoting("342.5"))
    }

    @Test func fixedDecimalsRoundHalfAwayFromZero() {
        #expect(FitnessFormat.fixed(12.25, decimals: 1) == "12.3")
        #expect(FitnessFormat.fixed(1.005, decimals: 2) == "1.01")
        #expect(FitnessFormat.fixed(7.5, decimals: 2) == "7.50")
        #expect(FitnessFormat.fixed(-0.04, decimals: 1) == "0.0")
        #expect(FitnessFormat.fixed(-2.25, decimals: 1) == "-2.3")
        #expect(FitnessFormat.fixed(2, decimals: 0) == "2")
        #expect(FitnessFormat.grouped(1_234_567) == "1,234,567" && FitnessFormat.grouped(999) == "999")
        #expect(FitnessFormat.grouped(-1200) == "-1,200")
    }
}
