#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation
import PeerLinkCore
import PeerLinkPOSIX
import PeerLinkSim
import Synchronization

/// What the conductor needs to know about the proxy to decide quiescence.
public struct ProxyStatus: Sendable, Equatable {
    /// Frames received from each side and forwarded to the other, on the current connection
    /// pair (handshake included).
    public var framesIn: [LinkDirection: Int] = [:]
    public var framesOut: [LinkDirection: Int] = [:]
    /// A connection pair is open.
    public var pairOpen = false
    /// Frames whose delivery time has come but which are not yet written out.
    public var deliverableNow = 0
    /// The earliest delivery time of a held frame.
    public var nextDeliveryMs: EpochMs?
    /// Totals over the run, for the report's timeline.
    public var dropped = 0
    public var duplicated = 0
    public var reordered = 0
    public var tampered = 0
}

/// The fault proxy of process mode: the watch connects to it, it connects to the phone, and
/// it forwards frames according to `LinkFaults`, holding each until its delivery time on
/// the virtual clock the conductor moves. It runs its own poll thread.
public final class FaultProxy: @unchecked Sendable {
    // Unchecked: all mutable state is inside `state` (a Mutex); fds are written once at init.
    public let port: UInt16
    let upstream: SocketAddress
    let listenFD: Int32
    let wakeRead: Int32
    let wakeWrite: Int32
    let state: Mutex<ProxyState>
    private var thread: Thread?

    /// Listens on a free loopback port and forwards to `upstream` (the phone).
    public init(upstream: SocketAddress, seed: UInt64, startMs: EpochMs) throws {
        self.upstream = upstream
        let (fd, p) = try ProxySockets.listen()
        listenFD = fd
        port = p
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw POSIXError("pipe") }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        wakeRead = fds[0]
        wakeWrite = fds[1]
        _ = fcntl(wakeRead, F_SETFL, fcntl(wakeRead, F_GETFL, 0) | O_NONBLOCK)
        state = Mutex(ProxyState(planner: FaultPlanner(seed: seed), nowMs: startMs))
        let t = Thread { [self] in self.loop() }
        t.name = "fault-proxy"
        thread = t
        t.start()
    }

    deinit { stop() }

    /// Stops the thread and closes every socket.
    public func stop() {
        let wasRunning = state.withLock { s -> Bool in
            defer { s.running = false }
            return s.running
        }
        guard wasRunning else { return }
        wake()
        while state.withLock({ !$0.stopped }) { usleep(1000) }
        close(listenFD)
        close(wakeRead)
        close(wakeWrite)
    }

    func wake() {
        var b: UInt8 = 1
        _ = write(wakeWrite, &b, 1)
    }

    // MARK: - Conductor API

    /// Moves the proxy's clock: frames due by then are forwarded.
    public func setNow(_ ms: EpochMs) {
        state.withLock { $0.nowMs = max($0.nowMs, ms) }
        wake()
    }

    public var faults: LinkFaults {
        get { state.withLock { $0.planner.faults } }
        set {
            state.withLock { $0.planner.faults = newValue }
            wake()
        }
    }

    /// Resets the current connection pair now (both sides see the connection drop).
    public func resetConnection() {
        state.withLock { $0.closePairRequested = true }
        wake()
    }

    public func status() -> ProxyStatus {
        state.withLock { $0.status() }
    }

    /// The timeline lines recorded so far (time, direction, frame kind, fate).
    public func takeTimeline() -> [String] {
        state.withLock { s in
            defer { s.timeline = [] }
            return s.timeline
        }
    }

    /// The frames of the timeline so far, as data (the run report).
    public func takeFrames() -> [FrameRecord] {
        state.withLock { s in
            defer { s.frames = [] }
            return s.frames
        }
    }

    // MARK: - Thread

    func loop() {
        while true {
            var fds: [pollfd] = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0), pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0)]
            let pairFDs = state.withLock { s -> [(Int32, Bool)] in
                guard let p = s.pair else { return [] }
                return [(p.watchFD, !p.toWatch.isEmpty), (p.phoneFD, !p.toPhone.isEmpty)]
            }
            for (fd, wantsOut) in pairFDs {
                fds.append(pollfd(fd: fd, events: Int16(POLLIN) | (wantsOut ? Int16(POLLOUT) : 0), revents: 0))
            }
            _ = poll(&fds, nfds_t(fds.count), 1000)
            let keepGoing = state.withLock { s -> Bool in
                guard s.running else {
                    s.closePair(reason: "proxy stopped")
                    s.stopped = true
                    return false
                }
                if fds[0].revents != 0 { var buf = [UInt8](repeating: 0, count: 64); while read(wakeRead, &buf, 64) > 0 {} }
                if fds[1].revents != 0 { s.accept(listenFD: listenFD, upstream: upstream) }
                if s.closePairRequested {
                    s.closePairRequested = false
                    s.closePair(reason: "connection reset by the fault proxy")
                }
                if fds.count > 2, s.pair != nil {
                    if fds[2].revents != 0 { s.readFrom(.watchToPhone) }
                    if fds.count > 3, s.pair != nil, fds[3].revents != 0 { s.readFrom(.phoneToWatch) }
                }
                s.deliverDue()
                s.flush()
                return true
            }
            if !keepGoing { return }
        }
    }
}
