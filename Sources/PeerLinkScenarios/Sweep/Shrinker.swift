/// Delta debugging (Zeller's ddmin): shrinks a failing list to a smaller one that still fails.
///
/// The list is cut into `n` chunks; a chunk that fails alone replaces the list, else a
/// complement (the list without one chunk) that still fails does; otherwise the chunks get
/// finer, until single elements. The result is 1-minimal when the test budget suffices:
/// removing any one element makes the failure go away.
public enum Shrinker {
    /// The smallest sublist (order kept) found for which `stillFails` holds, trying at most
    /// `maxTests` candidates. `stillFails` is never called on the full list.
    public static func minimize<T>(_ items: [T], maxTests: Int = 400, stillFails: ([T]) -> Bool) -> [T] {
        var current = items
        var tests = 0
        func test(_ c: [T]) -> Bool {
            guard tests < maxTests else { return false }
            tests += 1
            return stillFails(c)
        }
        if !current.isEmpty, test([]) { return [] }
        var n = 2
        while current.count >= 2 && tests < maxTests {
            let chunks = split(current, into: n)
            var reduced = false
            for chunk in chunks where test(chunk) {
                current = chunk
                n = 2
                reduced = true
                break
            }
            if !reduced && chunks.count > 2 {
                for i in chunks.indices {
                    let complement = chunks.enumerated().filter { $0.offset != i }.flatMap(\.element)
                    if test(complement) {
                        current = complement
                        n = max(n - 1, 2)
                        reduced = true
                        break
                    }
                }
            }
            if !reduced {
                if n >= current.count { break }
                n = min(current.count, n * 2)
            }
        }
        return current
    }

    /// `items` in `n` contiguous chunks of nearly equal size (fewer when there are fewer items).
    static func split<T>(_ items: [T], into n: Int) -> [[T]] {
        let parts = max(1, min(n, items.count))
        var out: [[T]] = []
        var start = 0
        for i in 0..<parts {
            let end = start + (items.count - start) / (parts - i)
            out.append(Array(items[start..<end]))
            start = end
        }
        return out
    }
}
