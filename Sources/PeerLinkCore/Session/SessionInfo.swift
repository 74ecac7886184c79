
/// Session facts exchanged in `auth` and `ready` (both sealed).
///
/// Body: u64 incarnation, u64 knownPeerIncarnation, varint lastDelivered (ordinary),
/// varint lastDelivered (complication), varint contextVersionReceived, varint
/// lastFileDelivered, u8 app-state flags.
struct SessionInfo: Sendable, Equatable {
    var incarnation: UInt64
    /// The sender's idea of the receiver's incarnation (whose streams it counted).
    var knownPeerIncarnation: UInt64
    /// The highest seq of the receiver's streams the sender delivered.
    var lastDelivered: UInt64
    var lastComplicationDelivered: UInt64
    /// The receiver's application-context version the sender stored.
    var contextVersionReceived: UInt64
    /// The highest file number of the receiver's the sender delivered.
    var lastFileDelivered: UInt64
    var appState: AppState

    /// The largest encoding: two u64, four varints of at most 10 bytes, one byte.
    static let maxBytes = 8 + 8 + 4 * 10 + 1

    func encode(into w: inout ByteWriter) {
        w.writeUInt64BE(incarnation)
        w.writeUInt64BE(knownPeerIncarnation)
        w.writeVarint(lastDelivered)
        w.writeVarint(lastComplicationDelivered)
        w.writeVarint(contextVersionReceived)
        w.writeVarint(lastFileDelivered)
        w.writeByte(appState.flags)
    }

    func encoded() -> [UInt8] {
        var w = ByteWriter(capacity: Self.maxBytes)
        encode(into: &w)
        return w.bytes
    }

    static func decode(_ r: inout ByteReader) throws(ByteReaderError) -> SessionInfo {
        let info = SessionInfo(incarnation: try r.readUInt64BE(), knownPeerIncarnation: try r.readUInt64BE(),
                               lastDelivered: try r.readVarint(), lastComplicationDelivered: try r.readVarint(),
                               contextVersionReceived: try r.readVarint(), lastFileDelivered: try r.readVarint(),
                               appState: AppState(flags: try r.readByte()))
        guard info.appState.flags & ~0x0F == 0 else { throw .malformed("app-state flags") }
        return info
    }
}
