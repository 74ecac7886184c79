/// Points of a line chart over a time window, scaled to 0…1 across it: readings are averaged
/// per bucket, so a day of one-second samples draws as at most `buckets` points.
public enum LineChartPoints {
    /// `samples` (x = time, oldest first) inside `[fromX, toX]`, one point per non-empty bucket.
    public static func bucketed(_ samples: [(x: Int64, y: Double)], fromX: Int64, toX: Int64, buckets: Int) -> [(x: Double, y: Double)] {
        guard toX > fromX, buckets > 0 else { return [] }
        var sums = [Double](repeating: 0, count: buckets), counts = [Int](repeating: 0, count: buckets)
        let span = Double(toX - fromX)
        for s in samples where s.x >= fromX && s.x <= toX {
            let i = min(buckets - 1, Int(Double(s.x - fromX) / span * Double(buckets)))
            sums[i] += s.y
            counts[i] += 1
        }
        return (0..<buckets).compactMap { i in
            counts[i] == 0 ? nil : (x: (Double(i) + 0.5) / Double(buckets), y: sums[i] / Double(counts[i]))
        }
    }
}
