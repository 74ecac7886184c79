/// A timestamp as a property-list value, for payloads and local values that carry the stamp
/// of a replicated write (the phone's complication push names the write its step goal came
/// from, so the watch can tell which of two goals the replica keeps).
extension HLCTimestamp {
    /// `["wallMs": int, "counter": int, "replica": int]`.
    public var plistValue: PlistValue {
        ["wallMs": .int(wallMs), "counter": .int(Int64(counter)), "replica": .int(Int64(replica))]
    }

    /// Reads `plistValue`; nil when a part is missing or out of its type's range.
    public init?(plistValue p: PlistValue) {
        guard let wallMs = p["wallMs"]?.intValue,
              let counter = p["counter"]?.intValue.flatMap(UInt32.init(exactly:)),
              let replica = p["replica"]?.intValue.flatMap(UInt16.init(exactly:))
        else { return nil }
        self.init(wallMs: wallMs, counter: counter, replica: replica)
    }
}
