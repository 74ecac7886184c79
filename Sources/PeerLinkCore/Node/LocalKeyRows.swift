#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The store row keys of the app's local values written lately, kept so that a key written
/// on every event (the phone's `live` and `link`, the watch's workout snapshot) is not copied
/// into a new array each time: four copies a heart-rate sample in the one-hour workout.
///
/// Four entries, replaced in turn; a key that is not held is copied as before. A key is found
/// by its UTF-8 bytes, not by `String`'s `==`: two canonically equivalent spellings ("é" and
/// "e\u{301}") are equal strings but different row keys.
struct LocalKeyRows: Sendable {
    static let capacity = 4
    private var rows: [[UInt8]] = []
    private var next = 0

    /// `key`'s UTF-8, the row key of its value in the local table.
    mutating func row(_ key: String) -> [UInt8] {
        if let i = held(key) { return rows[i] }
        let row = Self.utf8(key)
        if rows.count < Self.capacity {
            rows.append(row)
        } else {
            rows[next] = row
            next = (next + 1) % Self.capacity
        }
        return row
    }

    /// The entry holding `key`'s bytes, compared as one block (comparing through the string's
    /// UTF-8 view went byte by byte, and cost more than the copy it saved).
    private func held(_ key: String) -> Int? {
        func find(_ k: UnsafeBufferPointer<UInt8>) -> Int? {
            for i in rows.indices where rows[i].count == k.count {
                let same = rows[i].withUnsafeBufferPointer { r in k.count == 0 || memcmp(r.baseAddress!, k.baseAddress!, k.count) == 0 }
                if same { return i }
            }
            return nil
        }
        if let found = key.utf8.withContiguousStorageIfAvailable(find) { return found }
        var key = key
        return key.withUTF8(find)
    }

    /// A key's UTF-8, copied in one block (the view's generic copy went byte by byte).
    static func utf8(_ key: String) -> [UInt8] {
        key.utf8.withContiguousStorageIfAvailable { Array($0) } ?? Array(key.utf8)
    }
}
