import Testing
@testable import PeerLinkCore
@testable import PeerLinkPOSIX

@Suite("Simulated faults")
struct SimulatedFaultTests {
    @Test func connectionClosedAfterNBytesLosesNothing() throws {
        let net = try makeNetwork(seed: 11)
        net.runUntilQuiet()
        net.faults.closeAfterBytes = 700
        net.command(.watch, "send 200")
        net.advance(by: 20_000)
        #expect(net.trace.filter { $0.contains("closed after") }.count > 2)
        net.faults.closeAfterBytes = nil
        #expect(net.runUntilQuiet(maxMs: 120_000))
        #expect(RecorderApp.received(net.phone.ctx).compactMap { $0["n"]?.intValue } == Array(0..<200))
    }

    @Test func fileSurvivesCrashesOfBothSidesAndResumes() throws {
        let net = try makeNetwork(seed: 12, configure: { $0.fileSyncIntervalBytes = 256 * 1024; $0.fileAckIntervalBytes = 256 * 1024 }, keepFiles: true)
        net.runUntilQuiet()
        net.faults.bandwidthBytesPerSecond = 500_000  // 0.5 MB/s: the file takes about 8 s
        var rng = SplitMix64(seed: 12)
        var content = [UInt8]()
        while content.count < 4_000_000 { withUnsafeBytes(of: rng.next()) { content.append(contentsOf: $0) } }
        try net.watchFiles.write("series.bin", offset: 0, bytes: content)
        _ = net.withWatch { $0.transferFile("series.bin", metadata: ["kind": "series"]) }
        net.advance(by: 2_500)
        try net.crash(.watch)  // the sender dies mid-transfer
        net.advance(by: 3_000)
        let committedBefore = net.phone.ctx.session.persistent.incomingFile?.committedBytes ?? 0
        #expect(committedBefore > 0)
        try net.crash(.phone)  // then the receiver
        #expect(net.runUntilQuiet(maxMs: 120_000))
        #expect(try net.phoneFiles.readAll("kept/series.bin") == content)
        let received = net.phone.app.events.filter { if case .didReceiveFile = $0 { true } else { false } }
        #expect(received.count == 1)
        #expect(net.phone.ctx.session.stats.files.bytesReceived <= Int64(content.count) - committedBefore,
                "the restarted phone resumed from its committed offset")
        #expect(net.watch.ctx.outstandingFileTransfers.isEmpty)
    }

    @Test func linkDownMakesBothSidesUnreachableAndConnectAttemptsFailUntilUp() throws {
        let net = try makeNetwork(seed: 13)
        net.runUntilQuiet()
        net.setLink(up: false)
        net.advance(by: 10_000)
        #expect(!net.phone.ctx.isReachable && !net.watch.ctx.isReachable)
        let failures = net.trace.filter { $0.hasSuffix("connect failed") }.count
        #expect(failures >= 3)
        let id = net.withWatch { $0.sendMessage(["x": 1]) }
        #expect(failCodes(net.watch.app.events.filter { if case .messageDidFail(id, _) = $0 { true } else { false } }) == [.notReachable])
        net.setLink(up: true)
        #expect(net.runUntilQuiet(maxMs: 60_000))
        #expect(net.phone.ctx.isReachable)
    }
}

@Suite("Pairing files and codes")
struct PairingTests {
    @Test func codeCarriesThe32ByteSecretWithCheckDigitsAndBadCodesAreRefused() throws {
        let secret: [UInt8] = Array(0..<32)
        let code = PairingFile.code(for: secret)
        #expect(code.filter { $0 != "-" }.count == 68)
        #expect(code.hasPrefix("0001-0203-0405-0607-0809-0a0b-0c0d-0e0f-1011-1213-1415-1617-1819-1a1b-1c1d-1e1f-"))
        #expect(code.hasSuffix("-" + hexString(SHA256.hash(secret).prefix(2))))
        #expect(PairingFile.secret(fromCode: code) == secret)
        #expect(PairingFile.secret(fromCode: code.uppercased().replacingOccurrences(of: "-", with: " ")) == secret)
        #expect(PairingFile.secret(fromCode: "1234") == nil)
        #expect(PairingFile.secret(fromCode: String(repeating: "g", count: 68)) == nil)
        // One digit mistyped: the check digits catch it.
        var typo = Array(code)
        typo[0] = typo[0] == "0" ? "1" : "0"
        guard case .failure(let e) = PairingFile.parse(code: String(typo)) else { Issue.record("a mistyped code was taken"); return }
        #expect(e.description.contains("mistyped"))
        // The old 16-byte codes are not codes any more.
        #expect(PairingFile.secret(fromCode: "0001-0203-0405-0607-0809-0a0b-0c0d-0e0f") == nil)
    }

    @Test func aCodeIsNeverACommandLineArgument() throws {
        let code = PairingFile.code(for: Array(0..<32))
        #expect(throws: UsageError.self) { try NodeCommandLine(arguments: ["--pair", code], role: .watch, subcommands: []) }
        let cl = try NodeCommandLine(arguments: ["--pair-file", "/tmp/code"], role: .watch, subcommands: ["pair"])
        #expect(cl.pairFile == "/tmp/code")
    }
}
