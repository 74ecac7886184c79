import PeerLinkCore
import Testing

@testable import PhoneNode

/// The stored live workout's bytes, written straight from its fields, are the canonical
/// encoding of its `plistValue` with every combination of the optional fields.
@Suite struct LiveWorkoutBytesTests {
    @Test func bytesMatchTheGeneralEncoderWithAndWithoutOptionals() throws {
        let full: PlistValue = [
            "type": .string(LiveWorkout.metricsType), "state": .string("running"), "activity": .string("cycling"),
            "location": .string("outdoor"), "workoutID": .string("wörk-1"), "startMs": .int(-5), "elapsedMs": .int(1 << 40),
            "heartRateBpm": .double(.nan), "hrCount": .int(3_600), "energyKcal": .double(-0.0), "atMs": .int(1_780_000_000_000),
        ]
        let optional = ["location", "workoutID", "startMs", "elapsedMs", "heartRateBpm", "hrCount", "energyKcal", "atMs"]
        for mask in 0..<(1 << optional.count) {
            var d = try #require(full.dictionaryValue)
            for (i, k) in optional.enumerated() where mask & (1 << i) != 0 { d[k] = nil }
            let live = try #require(LiveWorkout(fields: .dictionary(d), receivedMs: 42 + Int64(mask)))
            #expect(live.canonicalBytes == CanonicalEncoding.encode(live.plistValue), "mask \(mask)")
        }
    }

    /// A message of the wire shape's keys only is read in one pass (`LiveWorkout.Fields`);
    /// with any other key, field by field by name. Both read every field alike, whatever
    /// its type, with every combination of the fields.
    @Test func theOnePassReadingEqualsTheReadingByName() throws {
        let values: [String: [PlistValue]] = [
            "type": [.string(LiveWorkout.metricsType), .int(1)],
            "state": [.string("running"), .string("paused"), .string("bogus"), .int(2)],
            "activity": [.string("running"), .string("cycling"), .string("swimming"), .bool(true)],
            "location": [.string("indoor"), .int(3)],
            "workoutID": [.string("w-1"), .double(1)],
            "startMs": [.int(-5), .double(2.0), .double(2.5)],
            "elapsedMs": [.int(1 << 40), .string("x")],
            "heartRateBpm": [.double(.nan), .int(140)],
            "hrCount": [.int(3_600), .double(7)],
            "energyKcal": [.double(-0.0), .int(12)],
            "atMs": [.int(1_780_000_000_000), .bool(false)],
            "receivedMs": [.int(9)],
        ]
        let keys = values.keys.sorted()
        var checked = 0
        for mask in 0..<(1 << keys.count) {
            var d: [String: PlistValue] = [:]
            for (i, k) in keys.enumerated() where mask & (1 << i) != 0 {
                let options = try #require(values[k])
                d[k] = options[(mask >> 3 + i) % options.count]
            }
            var fields = LiveWorkout.Fields()
            let known = fields.read(d)
            #expect(known, "only known keys")
            let onePass = LiveWorkout(fields: .dictionary(d), receivedMs: 42)
            var other = d
            other["unknownKey"] = .int(0)
            var otherFields = LiveWorkout.Fields()
            let otherKnown = otherFields.read(other)
            #expect(!otherKnown, "an unknown key")
            let byName = LiveWorkout(fields: .dictionary(other), receivedMs: 42)
            #expect(onePass?.canonicalBytes == byName?.canonicalBytes, "mask \(mask)")
            #expect((onePass == nil) == (byName == nil), "mask \(mask)")
            checked += 1
        }
        #expect(checked == 1 << keys.count)
    }

    /// `PhoneApp.sameString` (the message type's comparison) is `==`, canonical equivalence
    /// included.
    @Test func sameStringIsStringEquality() {
        let strings = ["", "a", LiveWorkout.metricsType, LiveWorkout.stoppedType, String(LiveWorkout.metricsType.dropLast()) + "S",
                       "caf\u{E9}", "cafe\u{301}", "\u{212A}", "K", String(repeating: "x", count: 40)]
        for a in strings {
            for b in strings { #expect(PhoneApp.sameString(a, b) == (a == b), "\(a) \(b)") }
        }
    }

    /// `PhoneApp.messageType` (isOwnTraffic's reading of a message's type) is
    /// `d["type"]?.stringValue`.
    @Test func messageTypeIsTheLookup() {
        let dictionaries: [[String: PlistValue]] = [
            [:], ["type": .string(LiveWorkout.metricsType)], ["type": .int(1)], ["Type": "x", "typ": "y", "types": "z"],
            ["atMs": 1, "state": "running", "type": .string(LiveWorkout.stoppedType), "workoutID": "w"],
            ["ty\u{70}e": "escaped but the same", "abcd": "other"], ["\u{212A}": "kelvin", "type": ""],
        ]
        for d in dictionaries { #expect(PhoneApp.messageType(d) == d["type"]?.stringValue, "\(d)") }
    }

    /// Long strings (multi-byte lengths) and extreme numbers: the writer's buffer is sized
    /// from the strings, and the bytes still match.
    @Test func bytesMatchWithLongStringsAndExtremeNumbers() throws {
        let long = String(repeating: "長い", count: 200) + "é"
        let fields: PlistValue = [
            "state": .string("paused"), "location": .string(long), "workoutID": .string(long + "x"),
            "startMs": .int(.min), "elapsedMs": .int(.max), "heartRateBpm": .double(-.infinity), "hrCount": .int(Int64(Int32.max)),
            "energyKcal": .double(.leastNonzeroMagnitude), "atMs": .int(-1),
        ]
        let live = try #require(LiveWorkout(fields: fields, receivedMs: .max))
        #expect(live.canonicalBytes == CanonicalEncoding.encode(live.plistValue))
    }
}

/// The stored link state's bytes, written straight from its fields, are the canonical
/// encoding of its `plistValue`, with and without its optional parts.
@Suite struct PhoneLinkStateBytesTests {
    @Test func bytesMatchTheGeneralEncoder() {
        var s = PhoneLinkState()
        #expect(s.canonicalBytes == CanonicalEncoding.encode(s.plistValue))
        s.messagesSent = 300; s.messagesFailed = 2; s.messagesReceived = 1 << 20; s.linkErrors = 1
        s.startsByMessage = 4; s.startsByUserInfo = 5; s.complicationSent = 6; s.complicationFallback = 7
        s.complicationFailed = 8; s.filesReceived = 9; s.contextsSent = 10
        s.pendingStarts = [.init(messageID: .max, activity: .cycling, startMs: -3), .init(messageID: 7, activity: .running, startMs: 1 << 41)]
        s.lastLinkError = "notReachable"; s.lastStartVia = "message"; s.lastStartResult = "failed:ü"
        #expect(s.canonicalBytes == CanonicalEncoding.encode(s.plistValue))
        s.lastFile = .init(name: "w.samples.plist", path: "files/w", bytes: 1234, atMs: 99, workoutID: nil, sampleCount: nil, error: nil)
        #expect(s.canonicalBytes == CanonicalEncoding.encode(s.plistValue))
        s.lastFile = .init(name: "w.samples.plist", path: "files/w", bytes: 1234, atMs: 99, workoutID: "w", sampleCount: 3600, error: "mismatch")
        s.lastLinkError = nil
        #expect(s.canonicalBytes == CanonicalEncoding.encode(s.plistValue))
        // Long strings, many pending starts, extreme counters.
        let long = String(repeating: "ü", count: 700)
        s.pendingStarts = (0..<300).map { .init(messageID: UInt64($0) << 50, activity: .walking, startMs: .min + Int64($0)) }
        s.lastLinkError = long; s.lastStartVia = long + "v"; s.lastStartResult = "error: " + long
        s.messagesReceived = .max; s.messagesSent = .min
        s.lastFile = .init(name: long, path: long + "/p", bytes: .max, atMs: .min, workoutID: long, sampleCount: .max, error: long)
        #expect(s.canonicalBytes == CanonicalEncoding.encode(s.plistValue))
    }
}
