
/// The fields of `LinkPersistent` by their names from before it was cut into the channels'
/// slices, for the store (`LinkPersistence`), the engine, the scenario runner and tests.
/// Each reads and changes its slice in place (`_modify`: an array is not copied to change it).
extension LinkPersistent {
    public var nextSeq: UInt64 {
        get { userInfo.nextSeq }
        _modify { yield &userInfo.nextSeq }
    }
    public var outbox: [OutboxItem] {
        get { userInfo.outbox }
        _modify { yield &userInfo.outbox }
    }
    public var peerAckedThrough: UInt64 {
        get { userInfo.peerAckedThrough }
        _modify { yield &userInfo.peerAckedThrough }
    }
    public var highestSeqSent: UInt64 {
        get { userInfo.highestSeqSent }
        _modify { yield &userInfo.highestSeqSent }
    }
    public var lastDeliveredFromPeer: UInt64 {
        get { userInfo.lastDeliveredFromPeer }
        _modify { yield &userInfo.lastDeliveredFromPeer }
    }
    public var lastComplicationDeliveredFromPeer: UInt64 {
        get { userInfo.lastComplicationDeliveredFromPeer }
        _modify { yield &userInfo.lastComplicationDeliveredFromPeer }
    }
    public var complicationBudgetDay: Int {
        get { userInfo.complicationBudgetDay }
        _modify { yield &userInfo.complicationBudgetDay }
    }
    public var complicationTransfersUsed: Int {
        get { userInfo.complicationTransfersUsed }
        _modify { yield &userInfo.complicationTransfersUsed }
    }
    public var applicationContext: PlistValue? {
        get { context.sent }
        _modify { yield &context.sent }
    }
    public var contextVersion: UInt64 {
        get { context.version }
        _modify { yield &context.version }
    }
    public var contextAckedVersion: UInt64 {
        get { context.ackedVersion }
        _modify { yield &context.ackedVersion }
    }
    public var receivedApplicationContext: PlistValue? {
        get { context.received }
        _modify { yield &context.received }
    }
    public var receivedContextVersion: UInt64 {
        get { context.receivedVersion }
        _modify { yield &context.receivedVersion }
    }
    public var nextFileNumber: UInt64 {
        get { fileSend.nextFileNumber }
        _modify { yield &fileSend.nextFileNumber }
    }
    public var highestFileSent: UInt64 {
        get { fileSend.highestFileSent }
        _modify { yield &fileSend.highestFileSent }
    }
    public var outgoingFiles: [OutgoingFile] {
        get { fileSend.files }
        _modify { yield &fileSend.files }
    }
    public var incomingFile: IncomingFile? {
        get { fileReceive.incoming }
        _modify { yield &fileReceive.incoming }
    }
    public var lastFileDelivered: UInt64 {
        get { fileReceive.lastDelivered }
        _modify { yield &fileReceive.lastDelivered }
    }
    public var nextInboxSeq: UInt64 {
        get { pendingInbox.nextSeq }
        _modify { yield &pendingInbox.nextSeq }
    }
    public var inbox: [InboxEntry] {
        get { pendingInbox.entries }
        _modify { yield &pendingInbox.entries }
    }
}
