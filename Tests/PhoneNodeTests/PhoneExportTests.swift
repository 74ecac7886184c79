import PeerLinkCore
import PhoneNode
import Testing

@Suite("Phone CSV export")
struct PhoneExportTests {
    /// The export of the fixture below, written out by hand: 30 days ending 2026-06-30 (Tokyo),
    /// CRLF after every record, empty fields where there is no data.
    static let expected = """
        date,steps,active_kcal,sleep_hours\r
        2026-06-01,1234,,7.50\r
        2026-06-02,,,\r
        2026-06-03,,,\r
        2026-06-04,,,\r
        2026-06-05,,,\r
        2026-06-06,,,\r
        2026-06-07,,,\r
        2026-06-08,,,\r
        2026-06-09,,,\r
        2026-06-10,,,\r
        2026-06-11,,,\r
        2026-06-12,,,\r
        2026-06-13,,,\r
        2026-06-14,,,\r
        2026-06-15,1300,342.5,7.25\r
        2026-06-16,,,\r
        2026-06-17,,,\r
        2026-06-18,,,\r
        2026-06-19,,,\r
        2026-06-20,,,\r
        2026-06-21,,,\r
        2026-06-22,,,\r
        2026-06-23,,,\r
        2026-06-24,,,\r
        2026-06-25,,,\r
        2026-06-26,,,\r
        2026-06-27,,,\r
        2026-06-28,,,\r
        2026-06-29,,,\r
        2026-06-30,8432,12.0,\r

        """

    static func phoneWithData() throws -> PhoneHarness {
        let p = try PhoneHarness(start: PhoneFixture.local("Asia/Tokyo", 2026, 6, 30, 21))
        p.ok("authorize grant all")
        p.ok("steps 999 --from 2026-05-31T10:00:00+09:00 --to 2026-05-31T10:10:00+09:00")  // 31 days ago: not exported
        p.ok("sleep asleepCore 2026-05-31T23:00:00+09:00 2026-06-01T06:30:00+09:00")
        p.ok("steps 1234 --from 2026-06-01T08:00:00+09:00 --to 2026-06-01T08:10:00+09:00")
        p.ok("steps 1000 --from 2026-06-15T08:00:00+09:00 --to 2026-06-15T08:10:00+09:00 --source watch")
        p.ok("steps 600 --from 2026-06-15T08:05:00+09:00 --to 2026-06-15T08:15:00+09:00")
        p.ok("energy 342.46 --from 2026-06-15T08:00:00+09:00 --to 2026-06-15T09:00:00+09:00")
        p.ok("sleep asleepCore 2026-06-14T23:00:00+09:00 2026-06-15T06:15:00+09:00 --source watch")
        p.ok("steps 8432 --from 2026-06-30T07:00:00+09:00 --to 2026-06-30T20:00:00+09:00")
        p.ok("energy 12.04 --from 2026-06-30T07:00:00+09:00 --to 2026-06-30T08:00:00+09:00")
        return p
    }

    @Test func exportIsByteForByteTheHandWrittenFile() throws {
        let p = try Self.phoneWithData()
        let reply = p.ok("export csv")
        #expect(reply.value["path"] == "exports/fitness-export-2026-06-30.csv")
        #expect(reply.text == "データをエクスポート: exports/fitness-export-2026-06-30.csv")
        let bytes = try #require(p.sink.file("fitness-export-2026-06-30.csv"))
        #expect(bytes == Array(Self.expected.utf8))
        #expect(p.q("export last rows")?.int == 30)
        #expect(p.q("export last bytes")?.int == Self.expected.utf8.count)
        try p.restart()
        #expect(p.q("export last path") == "exports/fitness-export-2026-06-30.csv")
        #expect(p.q("export count")?.int == 1)
    }

    @Test func unreadableTypesExportEmptyFields() throws {
        let p = try Self.phoneWithData()
        p.ok("authorize deny sleepAnalysis")
        p.ok("export csv")
        let text = String(decoding: try #require(p.sink.file("fitness-export-2026-06-30.csv")), as: UTF8.self)
        #expect(text.contains("2026-06-01,1234,,\r\n"))
        #expect(text.contains("2026-06-15,1300,342.5,\r\n"))
        #expect(p.q("export count")?.int == 1)
    }

    @Test func exportWithoutAFolderIsRefused() throws {
        let store = MemoryStore()
        let engine = try NodeEngine(
            app: PhoneApp(), role: .phone, store: store, config: LinkConfig(role: .phone, pairingSecret: nil),
            calendar: LocalCalendar(identifier: "Asia/Tokyo")!, language: .en, now: 1_780_000_000_000, seed: 1, newIncarnation: 1)
        let reply = engine.command(NodeCommand(line: "export csv")!, now: 1_780_000_000_000)
        #expect(!reply.isOK)
        #expect(reply.text.contains("no export folder"))
    }
}
