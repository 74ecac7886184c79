#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A small SVG builder for the apps' drawn screens: shapes and text appended in order, text
/// escaped, numbers written short. Pure: it only builds a string.
///
/// Coordinates are in points of the device's screen (an iPhone screen is 390 × 844, a watch's
/// 198 × 242); the report scales them with CSS.
public struct SVGDocument: Sendable {
    public let width: Double
    public let height: Double
    var body: String = ""

    /// An empty drawing of `width` × `height` points, filled with `background` when given.
    public init(width: Double, height: Double, background: String? = nil) {
        self.width = width
        self.height = height
        if let background { rect(x: 0, y: 0, width: width, height: height, fill: background) }
    }

    // MARK: - Shapes

    /// A rectangle (rounded by `radius`).
    public mutating func rect(x: Double, y: Double, width: Double, height: Double, fill: String, radius: Double = 0,
                              stroke: String? = nil, attributes: String = "") {
        body += "<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(max(0, width)))\" height=\"\(n(max(0, height)))\""
        if radius > 0 { body += " rx=\"\(n(radius))\"" }
        body += " fill=\"\(fill)\""
        if let stroke { body += " stroke=\"\(stroke)\"" }
        body += attributes.isEmpty ? "/>" : " \(attributes)/>"
    }

    /// A circle, filled or stroked.
    public mutating func circle(cx: Double, cy: Double, r: Double, fill: String = "none", stroke: String? = nil, strokeWidth: Double = 1) {
        body += "<circle cx=\"\(n(cx))\" cy=\"\(n(cy))\" r=\"\(n(r))\" fill=\"\(fill)\""
        if let stroke { body += " stroke=\"\(stroke)\" stroke-width=\"\(n(strokeWidth))\"" }
        body += "/>"
    }

    /// A straight line.
    public mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, stroke: String, width: Double = 1, dash: String? = nil,
                              attributes: String = "") {
        body += "<line x1=\"\(n(x1))\" y1=\"\(n(y1))\" x2=\"\(n(x2))\" y2=\"\(n(y2))\" stroke=\"\(stroke)\" stroke-width=\"\(n(width))\""
        if let dash { body += " stroke-dasharray=\"\(dash)\"" }
        body += attributes.isEmpty ? "/>" : " \(attributes)/>"
    }

    /// A polyline through `points` (not filled).
    public mutating func polyline(_ points: [(x: Double, y: Double)], stroke: String, width: Double = 2, attributes: String = "") {
        guard !points.isEmpty else { return }
        let pts = points.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")
        body += "<polyline points=\"\(pts)\" fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"\(n(width))\" stroke-linejoin=\"round\" stroke-linecap=\"round\""
        body += attributes.isEmpty ? "/>" : " \(attributes)/>"
    }

    /// A path from its `d` attribute.
    public mutating func path(_ d: String, fill: String = "none", stroke: String? = nil, width: Double = 1, attributes: String = "") {
        body += "<path d=\"\(d)\" fill=\"\(fill)\""
        if let stroke { body += " stroke=\"\(stroke)\" stroke-width=\"\(n(width))\" stroke-linecap=\"round\" stroke-linejoin=\"round\"" }
        body += attributes.isEmpty ? "/>" : " \(attributes)/>"
    }

    /// A progress ring in the Activity Rings style: a dim track and an arc from 12 o'clock,
    /// clockwise, over `fraction` of the circle (a full ring from 1 on; past 1 the overlap is
    /// drawn again from the top, as the Activity rings do). The arc carries `data-fraction`.
    public mutating func ring(cx: Double, cy: Double, r: Double, lineWidth: Double, fraction: Double?, color: String, label: String) {
        let f = fraction.map { $0.isFinite ? max(0, $0) : 0 }
        body += "<g data-ring=\"\(SVGText.escape(label))\" data-fraction=\"\(f.map { SVGNumber.fraction($0) } ?? "none")\">"
        circle(cx: cx, cy: cy, r: r, stroke: color + "40", strokeWidth: lineWidth)
        if let f, f > 0 {
            arc(cx: cx, cy: cy, r: r, lineWidth: lineWidth, fraction: min(f, 1), color: color)
            if f > 1 { arc(cx: cx, cy: cy, r: r, lineWidth: lineWidth, fraction: min(f - 1, 1), color: color) }
        }
        body += "</g>"
    }

    /// One arc of a ring, `fraction` (0…1] of the circle from 12 o'clock.
    mutating func arc(cx: Double, cy: Double, r: Double, lineWidth: Double, fraction: Double, color: String) {
        if fraction >= 0.9999 {
            circle(cx: cx, cy: cy, r: r, stroke: color, strokeWidth: lineWidth)
            return
        }
        let angle = 2 * Double.pi * fraction
        let x = cx + r * sin(angle), y = cy - r * cos(angle)
        let large = fraction > 0.5 ? 1 : 0
        path("M\(n(cx)) \(n(cy - r))A\(n(r)) \(n(r)) 0 \(large) 1 \(n(x)) \(n(y))", stroke: color, width: lineWidth)
    }

    // MARK: - Text

    /// A line of text; `anchor` is start, middle or end.
    public mutating func text(_ s: String, x: Double, y: Double, size: Double, fill: String, weight: Int = 400,
                              anchor: String = "start", attributes: String = "") {
        body += "<text x=\"\(n(x))\" y=\"\(n(y))\" font-size=\"\(n(size))\" fill=\"\(fill)\""
        if weight != 400 { body += " font-weight=\"\(weight)\"" }
        if anchor != "start" { body += " text-anchor=\"\(anchor)\"" }
        if !attributes.isEmpty { body += " \(attributes)" }
        body += ">\(SVGText.escape(s))</text>"
    }

    // MARK: - Grouping

    /// Appends already-built SVG markup (a symbol, another drawing's body).
    public mutating func raw(_ markup: String) { body += markup }

    /// Draws `content` inside `<g …>` with the given attributes (e.g. `data-card="steps"`).
    public mutating func group(_ attributes: String, _ content: (inout SVGDocument) -> Void) {
        body += "<g \(attributes)>"
        content(&self)
        body += "</g>"
    }

    /// The finished `<svg>` element; `attributes` are added to it (e.g. `data-screen="…"`).
    public func render(attributes: String = "") -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(n(width)) \(n(height))\" width=\"\(n(width))\" height=\"\(n(height))\""
            + " font-family=\"\(Self.fontFamily)\"" + (attributes.isEmpty ? "" : " \(attributes)") + ">" + body + "</svg>"
    }

    private func n(_ x: Double) -> String { SVGNumber.short(x) }

    /// No external font is loaded: the system's own (Noto CJK on Linux for Japanese).
    public static let fontFamily = "-apple-system, 'SF Pro Text', 'Hiragino Sans', 'Noto Sans CJK JP', 'Noto Sans', sans-serif"
}

/// Numbers as SVG attributes want them: at most one decimal, no trailing zero.
public enum SVGNumber {
    /// `12`, `12.5`, `-3.2`.
    public static func short(_ x: Double) -> String {
        guard x.isFinite else { return "0" }
        let tenths = Int64((x * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        let a = abs(tenths)
        return a % 10 == 0 ? "\(sign)\(a / 10)" : "\(sign)\(a / 10).\(a % 10)"
    }

    /// A fraction with three decimals (`0.843`), for `data-fraction`.
    public static func fraction(_ x: Double) -> String {
        let thousandths = Int64((x * 1000).rounded())
        let frac = String(thousandths % 1000)
        return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - frac.count) + frac
    }
}

/// Escaping for SVG and HTML text and attribute values.
public enum SVGText {
    /// `&`, `<`, `>`, `"` and `'` as entities.
    public static func escape(_ s: String) -> String {
        guard s.contains(where: { $0 == "&" || $0 == "<" || $0 == ">" || $0 == "\"" || $0 == "'" }) else { return s }
        var out = ""
        out.reserveCapacity(s.utf8.count + 16)
        for ch in s {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(ch)
            }
        }
        return out
    }
}
