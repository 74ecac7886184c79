import PeerLinkCore
import PhoneNode
import WatchNode
import Testing

/// The apps' command tables drive their dispatch and `show help`: every row is reachable
/// through the running node, a first word no row has is an unknown command, and `show help`
/// lists every row of the app's table and the engine's in the device's language.
@Suite("Command tables of both apps")
struct CommandTableTests {
    static func sections(_ role: DeviceRole) -> [CommandSection] {
        [role == .phone ? PhoneApp.commands.section : WatchApp.commands.section, NodeCommands.engine]
    }

    @Test(arguments: [DeviceRole.phone, .watch])
    func everyRowOfTheAppsTableIsDispatchedToItsHandler(role: DeviceRole) throws {
        let net = try HandConnectivityTests.makeNetwork(language: .en)
        let rows = Self.sections(role)[0].rows
        #expect(rows.count >= 20)
        for row in rows {
            let line = row.verb.joined(separator: " ")
            let r = net.command(role, line)
            net.advance(by: 1_000)
            #expect(r.text != L10n.unknownCommand(line)(.en), "\(role) `\(line)` is in the table but unknown")
        }
    }

    @Test(arguments: [DeviceRole.phone, .watch])
    func aFirstWordNoRowHasIsAnUnknownCommand(role: DeviceRole) throws {
        let net = try HandConnectivityTests.makeNetwork(language: .ja)
        for line in ["frob", "frob show", "shows dashboard", "goalx add x"] {
            #expect(net.command(role, line) == .error(L10n.unknownCommand(line)(.ja)), "\(role) `\(line)`")
        }
    }

    @Test func aLineGoesToTheLongestVerbItStartsWithElseToTheFirstRowOfItsFirstWord() {
        let phone = PhoneApp.commands
        #expect(phone.command(for: ["widget", "tap", "small"])?.synopsis.usage == "widget tap small|medium|countdown")
        #expect(phone.command(for: ["settings", "step-goal", "9000"])?.synopsis.verb == ["settings", "step-goal"])
        #expect(phone.command(for: ["settings", "notifications", "off"])?.synopsis.verb == ["settings"])
        #expect(phone.command(for: ["complication"])?.synopsis.verb == ["complication"])
        #expect(phone.command(for: ["complication", "push"])?.synopsis.verb == ["complication", "push"])
        #expect(phone.command(for: ["show", "history", "monthly"])?.synopsis.verb == ["show", "history"])
        // No row is `widget` alone: `widget x` goes to `widget tap`, whose handler answers its usage.
        #expect(phone.command(for: ["widget", "x"])?.synopsis.verb == ["widget", "tap"])
        #expect(phone.command(for: ["frob"]) == nil)
        #expect(phone.command(for: []) == nil)
        let watch = WatchApp.commands
        #expect(watch.command(for: ["workout", "start", "running"])?.synopsis.verb == ["workout", "start"])
        #expect(watch.command(for: ["workout", "pause"])?.synopsis.verb == ["workout"])
        #expect(watch.command(for: ["goal", "add", "Trip"])?.synopsis.verb == ["goal", "add"])
        #expect(watch.command(for: ["goals"])?.synopsis.verb == ["goals"])
    }

    @Test func refusalsKeepTheirUsageWordsThroughTheTable() throws {
        let net = try HandConnectivityTests.makeNetwork(language: .en)
        #expect(net.command(.phone, "widget x").text == "usage: widget tap small|medium|countdown")
        #expect(net.command(.phone, "show history yearly").text == "usage: show history [weekly|monthly]")
        #expect(net.command(.watch, "workout fly").text
            == "usage: workout prepare [TYPE]|start [TYPE]|pause|resume|stop|end|discard (TYPE: running, walking, cycling)")
        #expect(net.command(.watch, "settings x").text == "usage: settings step-goal N")
    }

    @Test(arguments: [DeviceRole.phone, .watch], [AppLanguage.ja, .en])
    func showHelpListsEveryRowOfTheAppAndTheEngineInTheDevicesLanguage(role: DeviceRole, language: AppLanguage) throws {
        let net = try HandConnectivityTests.makeNetwork(language: language)
        let help = net.command(role, "show help")
        #expect(help.isOK)
        let lines = help.text.split(separator: "\n").map(String.init)
        var at = 0
        for section in Self.sections(role) {
            let title = try #require(lines[at...].firstIndex(of: section.title(language)), "\(role) help has no \(section.title(language))")
            at = title
            for row in section.rows {
                // In table order, each row on a line of its own: its usage, then its help.
                let line = try #require(lines[at...].firstIndex { $0.hasPrefix("  " + row.usage + " ") && $0.hasSuffix(row.help(language)) },
                                        "\(role) help (\(language)) has no line for `\(row.usage)`:\n\(help.text)")
                at = line
            }
        }
        let japanese = help.text.unicodeScalars.contains { (0x3040...0x30FF).contains($0.value) || (0x4E00...0x9FFF).contains($0.value) }
        #expect(japanese == (language == .ja), "\(role) help in \(language):\n\(help.text)")
    }
}
