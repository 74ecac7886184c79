/// The store row keys of the app's local values written lately, kept so that a key written
/// on every event (the phone's `live` and `link`, the watch's workout snapshot) is not copied
/// into a new array each time: four copies a heart-rate sample in the one-hour workout.
///
/// Four entries, replaced in turn; a key that is not held is copied as before.
struct LocalKeyRows: Sendable {
    static let capacity = 4
    private var keys: [String] = []
    private var rows: [[UInt8]] = []
    private var next = 0

    /// `key`'s UTF-8, the row key of its value in the local table.
    mutating func row(_ key: String) -> [UInt8] {
        for i in keys.indices where keys[i] == key { return rows[i] }
        let row = Self.utf8(key)
        if keys.count < Self.capacity {
            keys.append(key)
            rows.append(row)
        } else {
            keys[next] = key
            rows[next] = row
            next = (next + 1) % Self.capacity
        }
        return row
    }

    /// A key's UTF-8, copied in one block (the view's generic copy went byte by byte).
    static func utf8(_ key: String) -> [UInt8] {
        key.utf8.withContiguousStorageIfAvailable { Array($0) } ?? Array(key.utf8)
    }
}
