
/// What the engine tells the person at the prompt between commands — replies and outcomes of
/// what they sent by hand, and what the peer sent by hand — and the parsing the connectivity
/// commands share.
extension NodeEngine {
    /// The most notices kept for a shell that does not take them (the oldest are dropped).
    static var maxNotices: Int { 200 }

    /// Takes the lines for the person at the prompt, oldest first (the process shell prints
    /// them on standard output after the event that produced them).
    public func drainNotices() -> [String] {
        defer { notices = [] }
        return notices
    }

    /// Moves the current event's notices to the shell's queue (bounded).
    func keepNotices() {
        guard !ctx.notices.isEmpty else { return }
        notices += ctx.notices
        ctx.notices = []
        if notices.count > Self.maxNotices { notices.removeFirst(notices.count - Self.maxNotices) }
    }

    // MARK: - Events

    /// Notes the link error an event reports (for `link`), whoever sent what failed.
    func noteLinkError(of event: LinkEvent) {
        switch event {
        case .messageDidFail(let id, let e): ctx.noteLinkError(e, subject: "m\(id)")
        case .didFinishUserInfoTransfer(let t, let e?): ctx.noteLinkError(e, subject: t.id)
        case .didFinishFileTransfer(let t, let e?): ctx.noteLinkError(e, subject: t.id)
        default: break
        }
    }

    /// Takes the outcome of a transfer sent by hand (true: the app does not see it). A
    /// received payload the app does not take as its own is shown at the prompt; the app
    /// still gets it.
    func takeHandEvent(_ event: LinkEvent) -> Bool {
        let l = ctx.language
        switch event {
        case .didFinishUserInfoTransfer(let t, let e):
            guard ctx.takeHandTransfer(t.id) else { return false }
            let what = t.stream == .complication ? L10n.nodeComplicationInfo : L10n.nodeUserInfo
            ctx.notify((e.map { L10n.nodeTransferFailed(what, t.id, $0.code) } ?? L10n.nodeDelivered(what, t.id))(l))
            return true
        case .didFinishFileTransfer(let t, let e):
            guard ctx.takeHandTransfer(t.id) else { return false }
            ctx.notify((e.map { L10n.nodeTransferFailed(L10n.nodeFile, t.id, $0.code) } ?? L10n.nodeDelivered(L10n.nodeFile, t.id))(l))
            return true
        case .didReceiveMessage(let m) where !Self.isOwnTraffic(app: &app, ctx: &ctx, event):
            ctx.notify(L10n.nodeReceivedMessage("m\(m.id)", from: ctx.role.peer, Self.payloadText(m.payload, l))(l))
        case .didReceiveUserInfo(let info, _) where info[NodeContext.replicaSyncKey] == nil && !Self.isOwnTraffic(app: &app, ctx: &ctx, event):
            ctx.notify(L10n.nodeReceivedUserInfo(from: ctx.role.peer, info.jsonString())(l))
        case .didReceiveApplicationContext(let c) where !Self.isOwnTraffic(app: &app, ctx: &ctx, event):
            ctx.notify(L10n.nodeReceivedContext(from: ctx.role.peer, c.jsonString())(l))
        case .didReceiveFile(let f) where !Self.isOwnTraffic(app: &app, ctx: &ctx, event):
            ctx.notify(L10n.nodeReceivedFile(from: ctx.role.peer, name: f.name, bytes: f.sizeBytes)(l))
        default:
            break
        }
        return false
    }

    /// A message payload as a person reads it: the dictionary's JSON, or the size of the data.
    static func payloadText(_ payload: MessagePayload, _ language: AppLanguage) -> String {
        switch payload {
        case .dictionary(let d): PlistValue.dictionary(d).jsonString()
        case .data(let b): L10n.nodeDataReply(bytes: b.count)(language)
        }
    }

    // MARK: - Parsing

    /// A refusal of a command's argument, as its reply.
    struct ArgumentRefusal: Error {
        var reply: CommandReply
    }

    /// The JSON dictionary `text` holds, for a payload sent by hand: a parse error, a value
    /// that is not a dictionary, or the replica's reserved key is refused.
    func parsePayload(_ text: String, usage: String) -> Result<PlistValue, ArgumentRefusal> {
        guard !text.isEmpty else { return .failure(ArgumentRefusal(reply: .error(L10n.usage(usage)(language)))) }
        let value: PlistValue
        do { value = try PlistValue.parseJSON(text) } catch {
            return .failure(ArgumentRefusal(reply: .error(L10n.nodeBadJSON("\(error)")(language))))
        }
        guard case .dictionary(let d) = value else { return .failure(ArgumentRefusal(reply: .error(L10n.nodeNotADictionary(language)))) }
        if d[NodeContext.replicaSyncKey] != nil {
            return .failure(ArgumentRefusal(reply: .error(L10n.nodeReservedKey(NodeContext.replicaSyncKey)(language))))
        }
        return .success(value)
    }

    /// The command's text after its first `count` words, as typed (JSON keeps its spaces and
    /// quotes, which the word splitter would take apart).
    static func argument(of c: NodeCommand, after count: Int) -> String {
        var rest = Substring(c.raw)
        for _ in 0..<count {
            rest = rest.drop { $0 == " " }
            rest = rest.drop { $0 != " " }
        }
        return String(rest.drop { $0 == " " })
    }

    /// Splits trailing options off `text`: `flags` take no value, `valued` take the next word
    /// (nil when it is missing). Returns what comes before them, trimmed.
    static func splitTrailingOptions(_ text: String, flags: Set<String>, valued: Set<String>) -> (body: String, options: [String: String?]) {
        var words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        var options: [String: String?] = [:]
        while let last = words.last {
            if last.isEmpty {
                words.removeLast()
            } else if flags.contains(last) || valued.contains(last) {
                options.updateValue(nil, forKey: last)
                words.removeLast()
            } else if words.count >= 2, valued.contains(words[words.count - 2]) {
                options[words[words.count - 2]] = last
                words.removeLast(2)
            } else {
                break
            }
        }
        return (words.joined(separator: " "), options)
    }
}
