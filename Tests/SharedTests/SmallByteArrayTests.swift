import Testing
import PeerLinkCore

/// `[UInt8](smallUninitializedCapacity:initializingWith:)` against the standard library's
/// `unsafeUninitializedCapacity` given the same writer: the same bytes below, at and above
/// the stack limit, for every initialized count; a writer's error comes out unchanged.
@Suite struct SmallByteArrayTests {
    struct Refused: Error, Equatable { var at: Int }

    /// Writes byte `i` as a function of `i` and `seed` into the first `count` places.
    static func writer(count: Int, seed: UInt8) -> (inout UnsafeMutableBufferPointer<UInt8>, inout Int) -> Void {
        { buffer, initialized in
            for i in 0..<count { buffer[i] = UInt8(truncatingIfNeeded: i &* 31) ^ seed }
            initialized = count
        }
    }

    @Test(arguments: [0, 1, 13, 200, Array<UInt8>.smallUninitializedLimit - 1, Array<UInt8>.smallUninitializedLimit,
                      Array<UInt8>.smallUninitializedLimit + 1, 5_000])
    func sameBytesAsTheStandardLibrary(capacity: Int) {
        for count in Set([0, capacity / 2, capacity]) {
            let seed = UInt8(truncatingIfNeeded: capacity ^ count)
            let small = [UInt8](smallUninitializedCapacity: capacity, initializingWith: Self.writer(count: count, seed: seed))
            let standard = [UInt8](unsafeUninitializedCapacity: capacity, initializingWith: Self.writer(count: count, seed: seed))
            #expect(small == standard, "capacity \(capacity), \(count) written")
            #expect(small.count == count, "capacity \(capacity), \(count) written")
        }
    }

    @Test(arguments: [16, 4_096])
    func aWritersErrorComesOut(capacity: Int) {
        #expect(throws: Refused(at: capacity)) {
            _ = try [UInt8](smallUninitializedCapacity: capacity) { _, initialized in
                initialized = 0
                throw Refused(at: capacity)
            }
        }
    }

    @Test(arguments: [0, 300, Array<UInt8>.smallUninitializedLimit, Array<UInt8>.smallUninitializedLimit + 1])
    func theBufferHasTheWholeCapacity(capacity: Int) {
        var seen = -1
        _ = [UInt8](smallUninitializedCapacity: capacity) { buffer, initialized in
            seen = buffer.count
            initialized = 0
        }
        #expect(seen == capacity)
    }
}
