/// Hand-drawn stand-ins for the SF Symbols the seed's UI uses (SF Symbols を使ったアイコン):
/// no font, no image, only paths. Each is drawn in a 24 × 24 box, placed at (`x`, `y`) and
/// scaled to `size`, inside `<g data-symbol="NAME">` named after the SF Symbol it stands for.
public enum SVGSymbol: String, Sendable, CaseIterable {
    case figureWalk = "figure.walk"
    case figureRun = "figure.run"
    case bicycle = "bicycle"
    case flame = "flame.fill"
    case heart = "heart.fill"
    case bed = "bed.double.fill"
    case chart = "chart.bar.fill"
    case gear = "gearshape.fill"
    case bell = "bell.fill"
    case calendar = "calendar"
    case checkmark = "checkmark.circle.fill"
    case heartText = "heart.text.square.fill"
    case export = "square.and.arrow.up"
    case stopwatch = "stopwatch"

    /// The symbol's markup at (`x`, `y`) (top left), `size` points wide, in `color`.
    public func svg(x: Double, y: Double, size: Double, color: String) -> String {
        let s = SVGNumber.short(size / 24)
        return "<g data-symbol=\"\(rawValue)\" transform=\"translate(\(SVGNumber.short(x)) \(SVGNumber.short(y))) scale(\(s))\">"
            + body(color) + "</g>"
    }

    /// The drawing in its 24 × 24 box.
    func body(_ c: String) -> String {
        let stroke = "fill=\"none\" stroke=\"\(c)\" stroke-width=\"2\" stroke-linecap=\"round\" stroke-linejoin=\"round\""
        switch self {
        case .figureWalk:
            return "<circle cx=\"13\" cy=\"3.5\" r=\"2.2\" fill=\"\(c)\"/><path d=\"M12 7l-2 7l-3 7M11 11l3 3l2 7M10 9l-4 3M12 8l4 3\" \(stroke)/>"
        case .figureRun:
            return "<circle cx=\"15\" cy=\"3.5\" r=\"2.2\" fill=\"\(c)\"/><path d=\"M13 7l-3 6l-5 2M10 13l4 3l-1 6M12 8l-5 1M13 8l3 4l4 0\" \(stroke)/>"
        case .bicycle:
            return "<circle cx=\"5.5\" cy=\"16\" r=\"4\" \(stroke)/><circle cx=\"18.5\" cy=\"16\" r=\"4\" \(stroke)/><path d=\"M5.5 16l4-7h6l3 7M9.5 9l3 7h-7M14 6h3\" \(stroke)/>"
        case .flame:
            return "<path d=\"M12 2c1 4 6 6 6 12a6 6 0 0 1-12 0c0-3 2-5 3-6c0 2 1 3 2 3c0-4-1-6 1-9z\" fill=\"\(c)\"/>"
        case .heart:
            return "<path d=\"M12 21l-8.5-8.5a5 5 0 0 1 8.5-6.5a5 5 0 0 1 8.5 6.5z\" fill=\"\(c)\"/>"
        case .bed:
            return "<path d=\"M2 19v-12M2 15h20v4M22 15v-3a3 3 0 0 0-3-3h-8v6\" \(stroke)/><circle cx=\"6.5\" cy=\"11\" r=\"2.2\" fill=\"\(c)\"/>"
        case .chart:
            return "<rect x=\"3\" y=\"12\" width=\"4\" height=\"9\" rx=\"1\" fill=\"\(c)\"/><rect x=\"10\" y=\"6\" width=\"4\" height=\"15\" rx=\"1\" fill=\"\(c)\"/><rect x=\"17\" y=\"3\" width=\"4\" height=\"18\" rx=\"1\" fill=\"\(c)\"/>"
        case .gear:
            return "<circle cx=\"12\" cy=\"12\" r=\"6.5\" fill=\"none\" stroke=\"\(c)\" stroke-width=\"4\" stroke-dasharray=\"3 2.1\"/><circle cx=\"12\" cy=\"12\" r=\"4.5\" \(stroke)/>"
        case .bell:
            return "<path d=\"M6 17v-6a6 6 0 0 1 12 0v6l2 2h-16z\" fill=\"\(c)\"/><path d=\"M10 21h4\" \(stroke)/>"
        case .calendar:
            return "<rect x=\"3\" y=\"5\" width=\"18\" height=\"16\" rx=\"3\" \(stroke)/><path d=\"M3 10h18M8 3v4M16 3v4\" \(stroke)/>"
        case .checkmark:
            return "<circle cx=\"12\" cy=\"12\" r=\"10\" fill=\"\(c)\"/><path d=\"M7 12l3.5 3.5l6.5-7\" fill=\"none\" stroke=\"#000\" stroke-width=\"2.4\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>"
        case .heartText:
            return "<rect x=\"2\" y=\"2\" width=\"20\" height=\"20\" rx=\"5\" fill=\"\(c)\"/><path d=\"M12 17l-4.5-4.5a2.6 2.6 0 0 1 4.5-3a2.6 2.6 0 0 1 4.5 3z\" fill=\"#000\"/>"
        case .export:
            return "<path d=\"M12 3v12M7.5 7.5l4.5-4.5l4.5 4.5M5 11v9h14v-9\" \(stroke)/>"
        case .stopwatch:
            return "<circle cx=\"12\" cy=\"13.5\" r=\"8\" \(stroke)/><path d=\"M12 13.5v-4M10 2.5h4M12 2.5v3\" \(stroke)/>"
        }
    }
}
