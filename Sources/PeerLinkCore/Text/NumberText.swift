/// Numbers as people read them, in either language.
public enum NumberText {
    /// `n` with a comma between groups of three digits: 12345 → "12,345", -1000 → "-1,000".
    public static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, ch) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(ch)
        }
        return n < 0 ? "-" + out : out
    }
}
