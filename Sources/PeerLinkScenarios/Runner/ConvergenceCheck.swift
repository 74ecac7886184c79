import PeerLinkCore

/// `expect converged`, part by part: compares what the phone and the watch report in
/// `query sync-state` and names each part that differs (docs/SCENARIOS.md, *Convergence*):
/// - the replica digest;
/// - the apps' own states, when they report one (`NodeApp.convergenceState`);
/// - each side's application context (version and SHA-256 of its payload) with the one the
///   other side received;
/// - the complication's current payload, as the phone queued it and the watch received it;
/// - the files delivered each way (name, size, SHA-256 of the content), between the two
///   stores that exist now (a file the receiver holds and the sender's store forgot, as it
///   found at a handshake after it went back in time, is not asked of the sender);
/// - nothing outstanding on either side (user info, replica delta, files, context, messages).
///
/// What a damaged store (a corruption or a rollback) lost cannot come back for the
/// complication payload and the files (the sender does not keep them once delivered): a
/// difference there is excused when a store was damaged at or after the latest record
/// involved, or, for a file the receiver does not list, when a damage of the receiver's store
/// took that very record (`FileRecordsLostToDamage`: recorded, then lost with the store's tail
/// while the acknowledgement was still on its way to the sender); anything else (contents that
/// disagree, a record made after the damage, one that survived it) is not.
public enum ConvergenceCheck {
    /// The parts that differ, one line each; empty when everything agrees.
    /// `damagedAtMs`: the latest time each node's store was damaged in the run;
    /// `lostToDamage`: the file records each node's damages took.
    public static func differences(phone: PlistValue, watch: PlistValue, damagedAtMs: [DeviceRole: EpochMs] = [:],
                                   lostToDamage: FileRecordsLostToDamage = FileRecordsLostToDamage()) -> [String] {
        var out: [String] = []
        let lastDamage = damagedAtMs.values.max()
        func excused(_ times: [EpochMs?]) -> Bool {
            guard let d = lastDamage else { return false }
            return times.compactMap { $0 }.allSatisfy { $0 <= d }
        }
        if let e = phone["error"]?.stringValue ?? watch["error"]?.stringValue { out.append(e) }
        let pd = phone["digest"]?.stringValue ?? "?", wd = watch["digest"]?.stringValue ?? "?"
        if pd != wd { out.append("replica digests differ (phone \(pd.prefix(16))…, watch \(wd.prefix(16))…)") }
        if phone["app"] != watch["app"] {
            out.append("the apps' own states differ (phone \(phone["app"].map { $0.logText(limit: 160) } ?? "none"), watch \(watch["app"].map { $0.logText(limit: 160) } ?? "none"))")
        }
        for (from, to) in [(DeviceRole.phone, DeviceRole.watch), (.watch, .phone)] {
            let (f, t) = from == .phone ? (phone, watch) : (watch, phone)
            let sent = f["contextSent"], received = t["contextReceived"]
            if sent?["version"] != received?["version"] || sent?["sha256"] != received?["sha256"] {
                out.append("application context: the \(from) set \(contextText(sent)), the \(to) received \(contextText(received))")
            }
        }
        let cs = phone["complicationSent"], cr = watch["complicationReceived"]
        if cs?["sha256"] != cr?["sha256"], !excused([cs?["atMs"]?.intValue, cr?["atMs"]?.intValue]) {
            out.append("complication payload: the phone queued \(markText(cs)) as current, the watch holds \(markText(cr))")
        }
        for (from, to) in [(DeviceRole.watch, DeviceRole.phone), (.phone, .watch)] {
            let (f, t) = from == .phone ? (phone, watch) : (watch, phone)
            out += fileDifferences(from: from, to: to, sender: f, receiver: t, excused: { excused($0) }, lostToDamage: lostToDamage)
        }
        for (role, s) in [(DeviceRole.phone, phone), (.watch, watch)] {
            let items = outstandingItems(s)
            if !items.isEmpty { out.append("the \(role) still has outstanding: \(items.joined(separator: ", "))") }
        }
        return out
    }

    /// What a node reports as outstanding, in words (empty: nothing).
    public static func outstandingItems(_ s: PlistValue) -> [String] {
        let o = s["outstanding"]
        var items: [String] = []
        if let n = o?["userInfo"]?.intValue, n > 0 { items.append("\(n) user info") }
        if o?["replicaDelta"]?.boolValue == true { items.append("a replica delta") }
        if let n = o?["files"]?.intValue, n > 0 { items.append("\(n) files") }
        if o?["context"]?.boolValue == true { items.append("an unacknowledged application context") }
        if let n = o?["messages"]?.intValue, n > 0 { items.append("\(n) messages awaiting an answer") }
        return items
    }

    static func fileDifferences(from: DeviceRole, to: DeviceRole, sender: PlistValue, receiver: PlistValue,
                                excused: ([EpochMs?]) -> Bool,
                                lostToDamage: FileRecordsLostToDamage = FileRecordsLostToDamage()) -> [String] {
        // Only files exchanged between the two stores that exist now.
        let senderInc = sender["incarnation"], receiverInc = receiver["incarnation"]
        func byNumber(_ list: PlistValue?, peer: PlistValue?) -> [Int64: PlistValue] {
            var out: [Int64: PlistValue] = [:]
            for f in list?.arrayValue ?? [] where f["peer"] == peer { if let n = f["number"]?.intValue { out[n] = f } }
            return out
        }
        let sent = byNumber(sender["filesSent"], peer: receiverInc)
        let got = byNumber(receiver["filesReceived"], peer: senderInc)
        // Numbers the sender's store found, after it went back in time, that the receiver
        // delivered from a history it lost: it cannot list them.
        let forgotten = (sender["filesForgotten"]?.arrayValue ?? []).filter { $0["peer"] == receiverInc }.compactMap { f -> ClosedRange<Int64>? in
            guard let a = f["first"]?.intValue, let b = f["last"]?.intValue, a <= b else { return nil }
            return a...b
        }
        var out: [String] = []
        for n in Set(sent.keys).union(got.keys).sorted() {
            let s = sent[n], r = got[n]
            if let s, let r {
                if s["name"] != r["name"] || s["bytes"] != r["bytes"] || s["sha256"] != r["sha256"] {
                    out.append("file \(n): the \(from) delivered \(fileText(s)), the \(to) received \(fileText(r))")
                }
            } else if s == nil, forgotten.contains(where: { $0.contains(n) }) {
                continue
            } else if r == nil, let peer = senderInc?.stringValue, lostToDamage.tookReceipt(by: to, peer: peer, number: n) {
                continue  // the receiver recorded it, and a damage took the record (its acknowledgement may have reached the sender later)
            } else if !excused([s?["atMs"]?.intValue, r?["atMs"]?.intValue]) {
                out.append(s != nil ? "file \(n) (\(fileText(s!))): delivered by the \(from), not among the \(to)'s received files"
                                    : "file \(n) (\(fileText(r!))): received by the \(to), not among the \(from)'s delivered files")
            }
        }
        return out
    }

    static func contextText(_ c: PlistValue?) -> String {
        guard let c else { return "none" }
        return "v\(c["version"]?.intValue ?? 0) (\(c["sha256"]?.stringValue?.prefix(12) ?? "?")…)"
    }

    static func markText(_ m: PlistValue?) -> String {
        guard let m else { return "none" }
        return "\(m["sha256"]?.stringValue?.prefix(12) ?? "?")… (at \(m["atMs"]?.intValue ?? 0))"
    }

    static func fileText(_ f: PlistValue) -> String {
        "\(f["name"]?.stringValue ?? "?"), \(f["bytes"]?.intValue ?? 0) B, SHA-256 \(f["sha256"]?.stringValue?.prefix(12) ?? "?")…"
    }
}

/// The received-file records (`filesReceived` of `query sync-state`) each node's store lost to
/// its damages: held just before a damage, gone just after it, as the scenario runner asked
/// the node on both sides of the damage.
///
/// A rollback loses a store's last commits, and with them a file's record made moments before:
/// the receiver records a file and acknowledges it in one event, and when the acknowledgement
/// is still on a slow link as the receiver's store goes back, the sender records its delivery
/// after the damage (seeds 1100324 of `complication-60-pushes` with the fitness workload and
/// 900465 of `phone-elapsed-matches-saved-workout`: latency above 600 ms, then `rollback
/// phone`). The damage time alone cannot excuse that difference (the sender's record is newer);
/// this record of what the damage took can, and only for the records it took: one that
/// survived the damage and went missing later is still named. (A sender's lost delivery record
/// needs no such note: the receiver's record is older than it, which is older than the
/// damage, and the time rule excuses it.)
public struct FileRecordsLostToDamage: Sendable {
    struct Key: Hashable, Sendable {
        var receiver: DeviceRole
        var peer: String
        var number: Int64
    }

    var keys: Set<Key> = []

    public init() {}

    /// Adds the received files `role`'s `sync-state` listed just before its store was damaged
    /// (`before`) and no longer lists just after (`after`).
    public mutating func note(_ role: DeviceRole, before: PlistValue, after: PlistValue) {
        keys.formUnion(Self.keys(role, before).subtracting(Self.keys(role, after)))
    }

    static func keys(_ role: DeviceRole, _ s: PlistValue) -> Set<Key> {
        Set((s["filesReceived"]?.arrayValue ?? []).compactMap { f in
            guard let peer = f["peer"]?.stringValue, let n = f["number"]?.intValue else { return nil }
            return Key(receiver: role, peer: peer, number: n)
        })
    }

    /// True when one of `receiver`'s damages took its record of file `number` from store `peer`.
    public func tookReceipt(by receiver: DeviceRole, peer: String, number: Int64) -> Bool {
        keys.contains(Key(receiver: receiver, peer: peer, number: number))
    }
}
