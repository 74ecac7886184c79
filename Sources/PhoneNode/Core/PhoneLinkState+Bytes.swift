import PeerLinkCore

extension PhoneLinkState {
    /// The canonical bytes of `plistValue`, written straight from the fields with the keys in
    /// byte order: the phone stores its link state on every message it receives, and walking,
    /// sorting and encoding the dictionary cost more than building it.
    /// MUST equal `CanonicalEncoding.encode(plistValue)` (tested; `NodeContext.setLocal(_:encoded:)`
    /// checks in debug builds that they decode).
    var canonicalBytes: [UInt8] {
        let w = CanonicalEncoding.DirectWriter(capacity: 512 + 64 * pendingStarts.count)
        var count = 12
        if lastFile != nil { count += 1 }
        if lastLinkError != nil { count += 1 }
        if lastStartResult != nil { count += 1 }
        if lastStartVia != nil { count += 1 }
        w.dictionaryHeader(count: count)
        func n(_ key: String, _ v: Int) { w.key(key); w.int(Int64(v)) }
        n("complicationFailed", complicationFailed)
        n("complicationFallback", complicationFallback)
        n("complicationSent", complicationSent)
        n("contextsSent", contextsSent)
        n("filesReceived", filesReceived)
        if let f = lastFile { w.key("lastFile"); f.writeCanonical(into: w) }
        if let lastLinkError { w.key("lastLinkError"); w.string(lastLinkError) }
        if let lastStartResult { w.key("lastStartResult"); w.string(lastStartResult) }
        if let lastStartVia { w.key("lastStartVia"); w.string(lastStartVia) }
        n("linkErrors", linkErrors)
        n("messagesFailed", messagesFailed)
        n("messagesReceived", messagesReceived)
        n("messagesSent", messagesSent)
        w.key("pendingStarts"); w.arrayHeader(count: pendingStarts.count)
        for p in pendingStarts {
            w.dictionaryHeader(count: 3)
            w.key("activity"); w.string(p.activity.rawValue)
            w.key("messageID"); w.int(Int64(bitPattern: p.messageID))
            w.key("startMs"); w.int(p.startMs)
        }
        n("startsByMessage", startsByMessage)
        n("startsByUserInfo", startsByUserInfo)
        return w.finish()
    }
}

extension PhoneLinkState.ReceivedWorkoutFile {
    /// Writes `plistValue`'s canonical form, keys in byte order.
    func writeCanonical(into w: CanonicalEncoding.DirectWriter) {
        w.dictionaryHeader(count: 4 + (error == nil ? 0 : 1) + (sampleCount == nil ? 0 : 1) + (workoutID == nil ? 0 : 1))
        w.key("at"); w.int(atMs)
        w.key("bytes"); w.int(bytes)
        if let error { w.key("error"); w.string(error) }
        w.key("name"); w.string(name)
        w.key("path"); w.string(path)
        if let sampleCount { w.key("samples"); w.int(Int64(sampleCount)) }
        if let workoutID { w.key("workout"); w.string(workoutID) }
    }
}
