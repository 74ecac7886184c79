
/// Typed views of the session's one `ActionBuffer`: each channel gets one that offers only
/// the actions that channel may produce, and all of them append to the same buffer, so the
/// order of `LinkAction`s is the order they were produced in, whichever channel produced them.
///
/// A view is taken with `&out.messages` (…): the buffer is moved into the view for the call
/// and moved back after it (`_modify`), so it is never copied.
extension ActionBuffer {
    var messages: MessageOutput {
        get { MessageOutput(buffer: self) }
        _modify {
            var view = MessageOutput(buffer: self)
            self = ActionBuffer()
            defer { self = view.buffer }
            yield &view
        }
    }
}

/// What `MessageChannel` may produce: message frames and the message events.
struct MessageOutput: Sendable {
    fileprivate(set) var buffer: ActionBuffer

    mutating func send(_ id: ConnectionID, _ frame: Frame) {
        precondition([.message, .messageReply, .messageError].contains(frame.kind), "a message channel sends no \(frame.kind)")
        buffer.send(id, frame)
    }
    mutating func didReceive(_ message: IncomingMessage) { buffer.deliver(.didReceiveMessage(message)) }
    mutating func didReceiveReply(_ id: MessageID, _ payload: MessagePayload) { buffer.deliver(.didReceiveMessageReply(id, payload)) }
    mutating func didFail(_ id: MessageID, _ error: WCError) { buffer.deliver(.messageDidFail(id, error)) }
}
