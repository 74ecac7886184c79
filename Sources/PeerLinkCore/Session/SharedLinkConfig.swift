/// A `LinkConfig` held by reference. The session and five of its channels each kept the
/// configuration inline (216 bytes apiece), which was most of the session's 2 KB and so of
/// every copy of the node's context, and the engine hands the context to the app by value
/// after every entry point (`NodeEngine.deadlines`). It never changes once made, so holding
/// it by reference changes nothing else.
final class SharedLinkConfig: Sendable {
    let value: LinkConfig

    init(_ value: LinkConfig) { self.value = value }
}
