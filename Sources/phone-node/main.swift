#if canImport(Glibc)
import Glibc
#endif
import PeerLink
import PhoneNode
import Shared

let usage = """
    usage: phone-node [options]            run the phone node (listens for its paired watch)
           phone-node pair [--state DIR]   create a pairing secret and print its code

    options:
      --state DIR            state directory (default .state/phone): state.sqlite, node.log, pairing.secret
      --listen HOST:PORT     where to listen (default 127.0.0.1:7700; loopback only unless --allow-non-loopback)
      --virtual-clock START  run on a virtual clock starting at START (ISO date-time or epoch ms),
                             moved by `clock set|advance` on the control channel
      --tz ZONE              the device's time zone (default Asia/Tokyo)
      --locale ja|en         language of user-facing texts (default ja)
      --seed N               seed for jitter (default random)
      --sync full|normal     SQLite synchronous mode (default normal: durable across process crashes)
      --help                 this text

    Commands are read from standard input, one per line (`help` lists them).
    """

do {
    let cl = try NodeCommandLine(arguments: Array(CommandLine.arguments.dropFirst()), role: .phone, subcommands: ["pair"])
    switch cl.mode {
    case .help:
        print(usage)
    case .subcommand("pair", _):
        try makeDirectories(cl.stateDirectory)
        let secret = secureRandomBytes(PairingFile.secretBytes)
        try PairingFile.write(secret, directory: cl.stateDirectory)
        print(PairingFile.code(for: secret))
    case .subcommand(let s, _):
        throw UsageError("unknown command '\(s)'")
    case .run:
        let node = try NodeProcess(options: cl.processOptions(role: .phone)) { PhoneApp() }
        exit(node.run())
    }
} catch let e as UsageError {
    StandardError.write("phone-node: error: \(e)\n")
    exit(2)
} catch {
    StandardError.write("phone-node: error: \(error)\n")
    exit(1)
}
