import Testing
@testable import PeerLinkCore
@testable import PeerLinkSim

@Suite("Simulated network")
struct SimulatedNetworkTests {
    static func faulty() -> LinkFaults {
        var f = LinkFaults()
        f.latencyMs = 5  // 3 ms and 0…4 ms more
        f.jitterMs = 2
        f.lossPercent = 5
        f.duplicatePercent = 5
        f.reorderPercent = 5
        f.sliceBytes = 7
        return f
    }

    static func run(seed: UInt64) throws -> [String] {
        let net = try makeNetwork(seed: seed)
        net.faults = faulty()
        net.runUntilQuiet(maxMs: 60_000)
        net.command(.watch, "send 20")
        _ = net.withWatch { $0.sendMessage(["ping": 1]) }
        net.advance(by: 500)
        net.setLink(up: false)
        net.advance(by: 3_000)
        net.setLink(up: true)
        net.runUntilQuiet(maxMs: 120_000)
        return net.trace
    }

    @Test func sameSeedGivesTheSameTraceLineForLine() throws {
        let a = try Self.run(seed: 42), b = try Self.run(seed: 42), c = try Self.run(seed: 43)
        #expect(a == b)
        #expect(a != c)
        #expect(a.contains { $0.hasSuffix(" dropped") } && a.contains { $0.hasSuffix(" duplicated") } && a.contains { $0.hasSuffix(" reordered") })
        #expect(a.contains { $0.contains("watch→phone hello ") && $0.hasSuffix("B delivered") })
    }

    @Test func cleanNetworkConnectsAndCarriesEveryChannel() throws {
        let net = try makeNetwork(seed: 1, keepFiles: true)
        #expect(net.runUntilQuiet(maxMs: 10_000))
        #expect(net.phone.ctx.isReachable && net.watch.ctx.isReachable)
        try net.watchFiles.write("series.bin", offset: 0, bytes: [UInt8](repeating: 3, count: 700_000))
        let msg = net.withWatch { ctx -> MessageID in
            _ = ctx.transferUserInfo(["n": 1])
            _ = ctx.updateApplicationContext(["face": "rings"])
            _ = ctx.transferFile("series.bin", metadata: ["kind": "hr"])
            return ctx.sendMessage(["q": "bpm"])
        }
        #expect(net.runUntilQuiet(maxMs: 10_000))
        #expect(net.watch.app.events.contains(.didReceiveMessageReply(msg, .dictionary(["q": "bpm"]))))
        #expect(RecorderApp.received(net.phone.ctx) == [["n": 1]])
        #expect(net.phone.ctx.receivedApplicationContext == ["face": "rings"])
        #expect(try net.phoneFiles.readAll("kept/series.bin") == [UInt8](repeating: 3, count: 700_000))
        #expect(net.watch.app.events.contains { if case .didFinishFileTransfer(_, nil) = $0 { true } else { false } })
    }

    @Test func bandwidthLimitSlowsAFileDown() throws {
        let net = try makeNetwork(seed: 2)
        net.runUntilQuiet()
        net.faults.bandwidthBytesPerSecond = 1_000_000  // 1 MB/s
        try net.watchFiles.write("f.bin", offset: 0, bytes: [UInt8](repeating: 1, count: 2_000_000))
        let start = net.now
        _ = net.withWatch { $0.transferFile("f.bin", metadata: nil) }
        #expect(net.runUntilQuiet(maxMs: 60_000))
        #expect(net.now - start >= 2_000)
        #expect(net.now - start < 4_000)
    }

    @Test func messagesStayInOrderUnderReorderingAndEachGetsOneOutcome() throws {
        let seed: UInt64 = 9
        let net = try makeNetwork(seed: seed)
        net.runUntilQuiet()
        net.faults.reorderPercent = 30
        net.faults.duplicatePercent = 10
        let ids = net.withWatch { ctx in (0..<40).map { i in ctx.sendMessage(["i": .int(Int64(i))]) } }
        net.advance(by: 10_000)
        let received = net.phone.app.events.compactMap { if case .didReceiveMessage(let m) = $0 { m.id } else { nil } }
        #expect(received == received.sorted(), "seed \(seed)")
        #expect(Set(received).count == received.count, "seed \(seed): a message delivered twice")
        for id in ids {
            let outcomes = net.watch.app.events.filter {
                switch $0 {
                case .didReceiveMessageReply(id, _), .messageDidFail(id, _): true
                default: false
                }
            }
            #expect(outcomes.count == 1, "seed \(seed): message \(id) has \(outcomes.count) outcomes")
        }
        #expect(received.count < ids.count, "seed \(seed): some message should have been overtaken")
    }

    @Test func garbageConnectionIsClosedWhileTheWatchKeepsBeingServed() throws {
        let net = try makeNetwork(seed: 3)
        net.runUntilQuiet()
        net.command(.watch, "send 50")
        let garbage: [[UInt8]] = [
            Array("GET / HTTP/1.1\r\n\r\n".utf8),  // bad magic
            [0x50, 0x4C, 1, 0x01, 0, 0, 0, 0],  // protocol 1
            [0x50, 0x4C, 2, 0xEE, 0, 0],  // unknown record type
            [0x50, 0x4C, 2, RecordType.hello.rawValue, 0xFF, 0xFF],  // a hello announcing 65,535 bytes
            RecordEncoder.encode(.sealed, [UInt8](repeating: 0, count: 40)),  // sealed before any key: out of protocol order
        ]
        let ids = garbage.map { net.injectConnection(bytes: $0) }
        #expect(net.runUntilQuiet(maxMs: 30_000))
        #expect(ids.allSatisfy { !net.isRawConnectionOpen($0) })
        for reason in ["bad magic", "unsupported protocol version 1", "unknown record type", "over the limit", "out of protocol order"] {
            #expect(net.logs.contains { $0.contains("phone warning") && $0.contains(reason) }, "no log for \(reason)")
        }
        #expect(RecorderApp.received(net.phone.ctx).count == 50)
        #expect(net.phone.ctx.session.isConnected)
    }

    @Test func silentLinkIsDetectedAndTheWatchReconnectsWithBackoff() throws {
        let net = try makeNetwork(seed: 4)
        net.runUntilQuiet()
        net.faults.lossPercent = 100  // the peer goes silent without a close
        let start = net.now
        while net.watch.ctx.session.isConnected && net.now - start < 60_000 { net.advance(by: 100) }
        #expect(net.now - start <= net.watch.ctx.session.config.peerSilenceTimeoutMs + 100)
        #expect(!net.watch.ctx.isReachable)
        net.faults.lossPercent = 0
        #expect(net.runUntilQuiet(maxMs: 60_000))
    }

    /// The frame line written into one buffer is the interpolated one, digit for digit.
    @Test func frameTraceLineIsTheInterpolatedLine() {
        for (now, bytes) in [(EpochMs(0), 0), (7, 9), (1_780_264_800_123, 245), (-42, 1_000_000), (.max, .max), (.min, 10)] {
            for (dir, kind) in [("phone→watch", "msg live 245"), ("watch→phone", ""), ("a", "ü ß")] {
                #expect(FrameTraceLine.make(at: now, dir, kind, bytes: bytes, FrameFate.delivered.rawValue)
                        == "\(now) \(dir) \(kind) \(bytes)B delivered")
            }
        }
    }
}
