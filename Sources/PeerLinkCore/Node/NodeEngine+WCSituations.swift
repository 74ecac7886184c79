
/// `wc …`: WatchConnectivity situations a scenario sets up at a node's prompt, beyond what
/// its app does on its own (docs/SCENARIOS.md, *WatchConnectivity at the prompt*):
/// - `wc file NAME BYTES`: write BYTES bytes to `outgoing/NAME` in the node's files and send
///   them with `transferFile` (a file the peer's app does not know);
/// - `wc replies withhold|answer`: the app's replies to messages are never sent (an app stuck
///   in its reply handler) or sent again as usual.
extension NodeEngine {
    func wcSituationCommand(_ c: NodeCommand) -> CommandReply {
        let w = c.words
        switch (w.count > 1 ? w[1] : "", w.count) {
        case ("file", 4):
            guard NodeFilePath.isInsideRoot(w[2]), !w[2].contains("/"), let n = Int(w[3]), (0...(64 << 20)).contains(n) else {
                return .error("usage: wc file NAME BYTES (a plain file name; 0…67108864 bytes)")
            }
            let path = "outgoing/\(w[2])"
            var rng = SplitMix64(seed: UInt64(n) &+ 0x5743)
            let bytes = (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            do {
                try files.replaceAll(path, with: bytes)
            } catch {
                return .error("could not write \(path): \(error)")
            }
            switch ctx.transferFile(path, metadata: ["type": "wc.file"]) {
            case .success(let t): return .ok(["id": .string(t.id), "path": .string(path), "bytes": .int(Int64(n))], text: "\(path) queued as \(t.id)")
            case .failure(let e): return .error("transferFile refused: \(e)")
            }
        case ("replies", 3) where w[2] == "withhold" || w[2] == "answer":
            ctx.repliesWithheld = w[2] == "withhold"
            return .ok(["repliesWithheld": .bool(ctx.repliesWithheld)], text: "replies to messages \(ctx.repliesWithheld ? "withheld" : "sent")")
        default:
            return .error("usage: wc file NAME BYTES | wc replies withhold|answer")
        }
    }
}
