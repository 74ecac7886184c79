import SVGKit

/// The dark fitness look both apps draw with (seed 001: ダークモードベースのフィットネス UI):
/// black backgrounds, dark grey cards, white and grey text, the fitness-green accent of the
/// widgets (`FitnessWidgets.accentColorHex`) and Activity-Rings colours.
public enum SVGTheme {
    /// The screen's background (dark mode).
    public static let background = "#000000"
    /// A card or list row.
    public static let card = "#1C1C1E"
    /// A raised control (buttons, the selected segment).
    public static let control = "#2C2C2E"
    /// Primary text.
    public static let text = "#FFFFFF"
    /// Secondary text and axes.
    public static let secondary = "#8E8E93"
    /// Grid lines.
    public static let grid = "#3A3A3C"
    /// The fitness accent (steps, widgets, the complication): green.
    public static let accent = FitnessWidgets.accentColorHex
    /// Active energy (the Move ring's red).
    public static let energy = "#FA114F"
    /// Heart rate.
    public static let heart = "#FF375F"
    /// Sleep.
    public static let sleep = "#5E5CE6"
    /// A warning or an error message.
    public static let warning = "#FF9F0A"
    /// The goal line of charts.
    public static let goal = "#FFD60A"
    /// No external font is loaded: the system's own (Noto CJK on Linux for Japanese).
    public static let fontFamily = SVGDocument.fontFamily

    /// The colour of a sleep stage's bar.
    public static func sleepStage(_ stage: SleepStage) -> String {
        switch stage {
        case .awake: "#FF9F0A"
        case .asleepREM: "#64D2FF"
        case .asleepCore: "#0A84FF"
        case .asleepDeep: "#5E5CE6"
        case .asleepUnspecified: "#BF5AF2"
        case .inBed: "#48484A"
        }
    }
}
