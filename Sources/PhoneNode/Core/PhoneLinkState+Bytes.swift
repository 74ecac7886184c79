import PeerLinkCore

extension PhoneLinkState {
    /// The canonical bytes of `plistValue`, written straight from the fields with the keys in
    /// byte order: the phone stores its link state on every message it receives, and walking,
    /// sorting and encoding the dictionary cost more than building it.
    /// MUST equal `CanonicalEncoding.encode(plistValue)` (tested; `NodeContext.setLocal(_:encoded:)`
    /// checks in debug builds that they decode).
    var canonicalBytes: [UInt8] {
        var count = 12
        if case .some = lastFile { count += 1 }
        if lastLinkError != nil { count += 1 }
        if lastStartResult != nil { count += 1 }
        if lastStartVia != nil { count += 1 }
        // 16 keys of at most 20 bytes and their values (11 bytes at most) besides the strings'
        // UTF-8; a pending start at most 96 bytes besides its activity's name.
        var capacity = 640 + PhoneBytesWriter.bound(lastLinkError) + PhoneBytesWriter.bound(lastStartResult)
            + PhoneBytesWriter.bound(lastStartVia) + 128 * pendingStarts.count
        if let f = lastFile { capacity += f.canonicalBytesBound }
        var w = PhoneBytesWriter(capacity: capacity)
        w.dictionaryHeader(count: count)
        w.key("complicationFailed"); w.int(Int64(complicationFailed))
        w.key("complicationFallback"); w.int(Int64(complicationFallback))
        w.key("complicationSent"); w.int(Int64(complicationSent))
        w.key("contextsSent"); w.int(Int64(contextsSent))
        w.key("filesReceived"); w.int(Int64(filesReceived))
        if let f = lastFile { w.key("lastFile"); f.writeCanonical(into: &w) }
        if let lastLinkError { w.key("lastLinkError"); w.string(lastLinkError) }
        if let lastStartResult { w.key("lastStartResult"); w.string(lastStartResult) }
        if let lastStartVia { w.key("lastStartVia"); w.string(lastStartVia) }
        w.key("linkErrors"); w.int(Int64(linkErrors))
        w.key("messagesFailed"); w.int(Int64(messagesFailed))
        w.key("messagesReceived"); w.int(Int64(messagesReceived))
        w.key("messagesSent"); w.int(Int64(messagesSent))
        w.key("pendingStarts"); w.arrayHeader(count: pendingStarts.count)
        for p in pendingStarts {
            w.dictionaryHeader(count: 3)
            w.key("activity"); w.string(p.activity.rawValue)
            w.key("messageID"); w.int(Int64(bitPattern: p.messageID))
            w.key("startMs"); w.int(p.startMs)
        }
        w.key("startsByMessage"); w.int(Int64(startsByMessage))
        w.key("startsByUserInfo"); w.int(Int64(startsByUserInfo))
        return w.finish()
    }
}

extension PhoneLinkState.ReceivedWorkoutFile {
    /// An upper bound of what `writeCanonical` writes.
    var canonicalBytesBound: Int {
        // 7 keys of at most 8 bytes and the integers: 160 bytes besides the strings' UTF-8.
        160 + PhoneBytesWriter.bound(error) + PhoneBytesWriter.bound(name) + PhoneBytesWriter.bound(path)
            + PhoneBytesWriter.bound(workoutID)
    }

    /// Writes `plistValue`'s canonical form, keys in byte order.
    func writeCanonical(into w: inout PhoneBytesWriter) {
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
