
/// Typed views of the session's one `ActionBuffer`: each channel gets one that offers only
/// the actions that channel may produce, and all of them append to the same buffer, so the
/// order of `LinkAction`s is the order they were produced in, whichever channel produced them.
///
/// A view is taken with `&out.messages` (…): the buffer is moved into the view for the call
/// and moved back after it (`_modify`), so it is never copied.
protocol ActionView {
    var buffer: ActionBuffer { get set }
    init(buffer: ActionBuffer)
}

extension ActionBuffer {
    /// This buffer seen through the view `V`, moved in and out (not copied).
    subscript<V: ActionView>(view _: V.Type) -> V {
        get { V(buffer: self) }
        _modify {
            var view = V(buffer: self)
            self = ActionBuffer()
            defer { self = view.buffer }
            yield &view
        }
    }

    var messages: MessageOutput {
        get { self[view: MessageOutput.self] }
        _modify { yield &self[view: MessageOutput.self] }
    }
    var context: ContextOutput {
        get { self[view: ContextOutput.self] }
        _modify { yield &self[view: ContextOutput.self] }
    }
    var fileReceive: FileReceiveOutput {
        get { self[view: FileReceiveOutput.self] }
        _modify { yield &self[view: FileReceiveOutput.self] }
    }
    var userInfo: UserInfoOutput {
        get { self[view: UserInfoOutput.self] }
        _modify { yield &self[view: UserInfoOutput.self] }
    }
    var fileSend: FileSendOutput {
        get { self[view: FileSendOutput.self] }
        _modify { yield &self[view: FileSendOutput.self] }
    }
    var handshake: HandshakeOutput {
        get { self[view: HandshakeOutput.self] }
        _modify { yield &self[view: HandshakeOutput.self] }
    }
    var inbox: InboxOutput {
        get { self[view: InboxOutput.self] }
        _modify { yield &self[view: InboxOutput.self] }
    }
}

/// What `MessageChannel` may produce: message frames and the message events.
struct MessageOutput: ActionView, Sendable {
    var buffer: ActionBuffer

    mutating func send(_ id: ConnectionID, _ frame: Frame) {
        switch frame.kind {
        case .message, .messageReply, .messageError: break
        default: preconditionFailure("a message channel sends no \(frame.kind)")
        }
        buffer.send(id, frame)
    }
    mutating func didReceive(_ message: IncomingMessage) { buffer.deliver(.didReceiveMessage(message)) }
    mutating func didReceiveReply(_ id: MessageID, _ payload: MessagePayload) { buffer.deliver(.didReceiveMessageReply(id, payload)) }
    mutating func didFail(_ id: MessageID, _ error: WCError) { buffer.deliver(.messageDidFail(id, error)) }
}

/// What `ContextChannel` may produce: context frames and the sent context's row.
struct ContextOutput: ActionView, Sendable {
    var buffer: ActionBuffer

    mutating func send(_ id: ConnectionID, _ frame: Frame) {
        precondition(frame.kind == .context || frame.kind == .contextAck, "a context channel sends no \(frame.kind)")
        buffer.send(id, frame)
    }
    mutating func persist(_ body: (inout WriteBatch) -> Void) { buffer.persist(body) }
}

/// What `FileReceiveChannel` may produce: the receiver's answers, operations on the file
/// under way, its row, and the log of a failed check.
struct FileReceiveOutput: ActionView, Sendable {
    var buffer: ActionBuffer

    mutating func send(_ id: ConnectionID, _ frame: Frame) {
        precondition(frame.kind == .fileResume || frame.kind == .fileAck, "a file receiver sends no \(frame.kind)")
        buffer.send(id, frame)
    }
    mutating func file(_ operation: FileOperation) {
        if case .measure = operation { preconditionFailure("a file receiver measures no file") }
        buffer.file(operation)
    }
    mutating func persist(_ body: (inout WriteBatch) -> Void) { buffer.persist(body) }
    mutating func log(_ level: LogLevel, _ message: String) { buffer.log(level, message) }
}

/// What `Inbox` may produce: the content events, the deletion of a delivered file the app
/// left in the inbox, and the deletion of delivered rows.
struct InboxOutput: ActionView, Sendable {
    var buffer: ActionBuffer

    mutating func deliver(_ event: LinkEvent) {
        switch event {
        case .didReceiveUserInfo, .didReceiveApplicationContext, .didReceiveFile: buffer.deliver(event)
        default: preconditionFailure("the inbox delivers no \(event)")
        }
    }
    mutating func removeFile(_ path: String) { buffer.file(.remove(path: path)) }
    mutating func persist(_ body: (inout WriteBatch) -> Void) { buffer.persist(body) }
}

/// What `UserInfoChannel` may produce: user-info frames, outbox rows, and the sender's
/// `didFinishUserInfoTransfer` (the receiver's deliveries go through the inbox).
struct UserInfoOutput: ActionView, Sendable {
    var buffer: ActionBuffer

    mutating func send(_ id: ConnectionID, _ frame: Frame) {
        switch frame.kind {
        case .userInfo, .userInfoAck, .userInfoCancel, .userInfoCancelReply: buffer.send(id, frame)
        default: preconditionFailure("a user-info channel sends no \(frame.kind)")
        }
    }
    mutating func persist(_ batch: WriteBatch) { buffer.persist(batch) }
    mutating func persist(_ body: (inout WriteBatch) -> Void) { buffer.persist(body) }
    mutating func didFinish(_ transfer: UserInfoTransfer) { buffer.deliver(.didFinishUserInfoTransfer(transfer, error: nil)) }
}

/// What `FileSendChannel` may produce: offers, cancels, chunks and ends of the head file, the
/// measurement of a queued file, queue rows, and `didFinishFileTransfer`.
struct FileSendOutput: ActionView, Sendable {
    var buffer: ActionBuffer

    mutating func send(_ id: ConnectionID, _ frame: Frame) {
        precondition(frame.kind == .fileOffer || frame.kind == .fileCancel, "a file sender sends no \(frame.kind) frame itself")
        buffer.send(id, frame)
    }
    mutating func sendChunk(_ id: ConnectionID, number: UInt64, path: String, offset: Int64, count: Int) {
        buffer.append(.sendFileChunk(id, number: number, path: path, offset: offset, count: count))
    }
    mutating func sendEnd(_ id: ConnectionID, number: UInt64, path: String, sizeBytes: Int64) {
        buffer.append(.sendFileEnd(id, number: number, path: path, sizeBytes: sizeBytes))
    }
    mutating func file(_ operation: FileOperation) {
        guard case .measure = operation else { preconditionFailure("a file sender only measures files") }
        buffer.file(operation)
    }
    mutating func persist(_ body: (inout WriteBatch) -> Void) { buffer.persist(body) }
    mutating func didFinish(_ transfer: FileTransfer, error: WCError?) { buffer.deliver(.didFinishFileTransfer(transfer, error: error)) }
}

/// What `HandshakeMachine` may produce: the handshake's frames and the switch to sealing.
struct HandshakeOutput: ActionView, Sendable {
    var buffer: ActionBuffer

    mutating func send(_ id: ConnectionID, _ frame: Frame) {
        switch frame.kind {
        case .hello, .helloReply, .auth, .ready: buffer.send(id, frame)
        default: preconditionFailure("a handshake sends no \(frame.kind)")
        }
    }
    mutating func startSealing(_ id: ConnectionID, _ keys: TransportKeys) { buffer.append(.startSealing(id, keys)) }
}
