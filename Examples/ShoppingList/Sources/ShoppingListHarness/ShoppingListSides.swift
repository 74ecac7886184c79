import PeerLinkCore
import PeerLinkScenarios
import PeerLinkWatchConnectivity
import PeerLinkWatchConnectivityHarness
import ShoppingList

/// Which build of the app a side runs: the correct one, or the one with the classic bug.
public protocol ShoppingListBuild: SendableMetatype {
    static var lastContextWins: Bool { get }
}
public enum CorrectBuild: ShoppingListBuild { public static var lastContextWins: Bool { false } }
public enum LastContextWinsBuild: ShoppingListBuild { public static var lastContextWins: Bool { true } }

/// Either side of the shopping list, as PeerLink runs it. Both devices have the same verbs;
/// the watch also `refresh`es from the phone.
public enum ShoppingListSide<Build: ShoppingListBuild>: WCAppSide {
    public static var title: String { "shopping list" }

    public static func makeApp(_ role: DeviceRole, restoring saved: PlistValue?) -> ShoppingList {
        var items: [String: ListItem] = [:]
        for (name, v) in saved?["items"]?.dictionaryValue ?? [:] {
            guard let checked = v["checked"]?.boolValue, let clock = v["clock"]?.intValue, let device = v["device"]?.stringValue else { continue }
            items[name] = ListItem(checked: checked, clock: Int(clock), device: device)
        }
        return ShoppingList(device: role.rawValue, items: items, clock: Int(saved?["clock"]?.intValue ?? 0), lastContextWins: Build.lastContextWins)
    }

    /// The list and its clock: what the app keeps in its own storage.
    public static func save(_ list: ShoppingList) -> PlistValue? {
        ["items": itemsValue(list), "clock": .int(Int64(list.clock))]
    }

    static func itemsValue(_ list: ShoppingList) -> PlistValue {
        .dictionary(list.items.mapValues { ["checked": .bool($0.checked), "clock": .int(Int64($0.clock)), "device": .string($0.device)] })
    }

    public static var commands: [WCTestCommand<ShoppingList>] {
        [
            WCTestCommand("add", "ITEM", ja: "品目を追加", en: "adds ITEM to the list") { list, c in
                guard c.words.count == 2 else { return .error("usage: add ITEM") }
                list.add(c.words[1])
                return .ok(.int(Int64(list.items.count)), text: "\(list.items.count) items")
            },
            WCTestCommand("check", "ITEM", ja: "品目にチェック", en: "checks ITEM off") { list, c in
                guard c.words.count == 2, list.items[c.words[1]] != nil else { return .error("usage: check ITEM (an item on the list)") }
                list.check(c.words[1])
                return .ok(text: "\(c.words[1]) checked")
            },
            WCTestCommand("uncheck", "ITEM", ja: "チェックを外す", en: "unchecks ITEM") { list, c in
                guard c.words.count == 2, list.items[c.words[1]] != nil else { return .error("usage: uncheck ITEM (an item on the list)") }
                list.uncheck(c.words[1])
                return .ok(text: "\(c.words[1]) unchecked")
            },
            WCTestCommand("refresh", ja: "iPhone から一覧を取得", en: "asks the counterpart for its list by live message") { list, _ in
                list.refresh()
                return .ok(text: list.lastRefreshError ?? "asked")
            },
        ]
    }

    /// `query count`, `query checked ITEM`, `query has ITEM`, `query refreshes`, `query refresh-error`.
    public static func query(_ list: ShoppingList, _ path: [String]) -> PlistValue? {
        switch path.first {
        case "count": .int(Int64(list.items.count))
        case "open": .int(Int64(list.items.values.filter { !$0.checked }.count))
        case "checked" where path.count == 2: list.items[path[1]].map { .bool($0.checked) }
        case "has" where path.count == 2: .bool(list.items[path[1]] != nil)
        case "refreshes": .int(Int64(list.refreshes))
        case "refresh-error": .string(list.lastRefreshError ?? "")
        default: nil
        }
    }

    /// Both devices must hold the same items, each with the same latest change.
    public static func convergenceState(_ list: ShoppingList) -> PlistValue? { itemsValue(list) }
}

public typealias ShoppingListPhone = ShoppingListSide<CorrectBuild>
public typealias ShoppingListWatch = ShoppingListSide<CorrectBuild>

extension SimApps {
    /// The shopping list as it should be.
    public static let shoppingList = SimApps.watchConnectivity("shopping-list", phone: ShoppingListSide<CorrectBuild>.self,
                                                               watch: ShoppingListSide<CorrectBuild>.self)
    /// The build with the classic bug (`--apps last-context-wins`).
    public static let shoppingListLastContextWins = SimApps.watchConnectivity(
        "last-context-wins", phone: ShoppingListSide<LastContextWinsBuild>.self, watch: ShoppingListSide<LastContextWinsBuild>.self)
}
