import PeerLinkCore

extension LiveWorkout {
    /// The canonical bytes of `plistValue`, written straight from the fields with the keys in
    /// byte order: the phone stores the live workout on every live-metrics message, and
    /// walking, sorting and encoding the dictionary cost more than building it.
    /// MUST equal `CanonicalEncoding.encode(plistValue)` (tested; `NodeContext.setLocal(_:encoded:)`
    /// checks in debug builds that they decode).
    var canonicalBytes: [UInt8] {
        var count = 4
        if atMs != nil { count += 1 }
        if elapsedMs != nil { count += 1 }
        if energyKcal != nil { count += 1 }
        if heartRateBpm != nil { count += 1 }
        if heartRateCount != nil { count += 1 }
        if location != nil { count += 1 }
        if startMs != nil { count += 1 }
        if workoutID != nil { count += 1 }
        // 12 keys of at most 12 bytes, values of at most 11 bytes besides the strings' UTF-8.
        let capacity = 384 + PhoneBytesWriter.bound(location) + PhoneBytesWriter.bound(workoutID) + Self.metricsType.utf8.count
        var w = PhoneBytesWriter(capacity: capacity)
        w.dictionaryHeader(count: count)
        w.key("activity"); w.string(activity.rawValue)
        if let atMs { w.key("atMs"); w.int(atMs) }
        if let elapsedMs { w.key("elapsedMs"); w.int(elapsedMs) }
        if let energyKcal { w.key("energyKcal"); w.double(energyKcal) }
        if let heartRateBpm { w.key("heartRateBpm"); w.double(heartRateBpm) }
        if let heartRateCount { w.key("hrCount"); w.int(Int64(heartRateCount)) }
        if let location { w.key("location"); w.string(location) }
        w.key("receivedMs"); w.int(receivedMs)
        if let startMs { w.key("startMs"); w.int(startMs) }
        w.key("state"); w.string(state.rawValue)
        w.key("type"); w.string(Self.metricsType)
        if let workoutID { w.key("workoutID"); w.string(workoutID) }
        return w.finish()
    }
}
