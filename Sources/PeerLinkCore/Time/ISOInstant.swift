/// ISO-8601 date-times with an explicit offset: `2026-06-01T07:00:00Z`, `…T07:00:00.250+09:00`.
public enum ISOInstant {
    /// Epoch ms from `2026-06-01T07:00:00Z`, `…+09:00`, or a plain integer (epoch ms).
    public static func parseOrEpochMs(_ s: String) -> EpochMs? {
        if let ms = Int64(s) { return ms }
        return parse(s)
    }

    public static func parse(_ s: String) -> EpochMs? {
        let u = Array(s.utf8)
        guard u.count >= 20, let date = CivilDate(iso: String(decoding: u[0..<10], as: UTF8.self)), u[10] == UInt8(ascii: "T") else { return nil }
        func num(_ a: Int, _ b: Int) -> Int? { Int(String(decoding: u[a..<b], as: UTF8.self)) }
        guard let h = num(11, 13), u[13] == UInt8(ascii: ":"), let m = num(14, 16), u[16] == UInt8(ascii: ":"), let sec = num(17, 19),
              h < 24, m < 60, sec < 60 else { return nil }
        var i = 19
        var millis = 0
        if i < u.count, u[i] == UInt8(ascii: ".") {
            var digits = 0
            i += 1
            while i < u.count, u[i] >= 0x30, u[i] <= 0x39 {
                if digits < 3 { millis = millis * 10 + Int(u[i] - 0x30) }
                digits += 1
                i += 1
            }
            for _ in digits..<3 where digits < 3 { millis *= 10 }
        }
        guard i < u.count else { return nil }
        var offsetMinutes = 0
        if u[i] == UInt8(ascii: "Z") {
            i += 1
        } else if u[i] == UInt8(ascii: "+") || u[i] == UInt8(ascii: "-") {
            guard i + 6 == u.count, let oh = num(i + 1, i + 3), u[i + 3] == UInt8(ascii: ":"), let om = num(i + 4, i + 6) else { return nil }
            offsetMinutes = (oh * 60 + om) * (u[i] == UInt8(ascii: "-") ? -1 : 1)
            i += 6
        } else {
            return nil
        }
        guard i == u.count else { return nil }
        let seconds = Int64(date.daysSinceEpoch) * 86_400 + Int64(h * 3600 + m * 60 + sec) - Int64(offsetMinutes * 60)
        return seconds * 1000 + Int64(millis)
    }
}
