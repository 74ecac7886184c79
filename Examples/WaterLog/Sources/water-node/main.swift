#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PeerLinkPOSIX
import WaterLog

// `water-node phone|watch [options]`: either side of the water log as a process, with the
// command line every PeerLinkPOSIX node speaks (`pair`, `--state`, `--listen`/`--connect`…).
let args = Array(CommandLine.arguments.dropFirst())
switch args.first {
case "phone": exit(NodeMain.run(role: .phone, Array(args.dropFirst()), programName: "water-node phone") { WaterPhone() })
case "watch": exit(NodeMain.run(role: .watch, Array(args.dropFirst()), programName: "water-node watch") { WaterWatch() })
default:
    StandardError.write("water-node: error: give the role first: water-node phone|watch [options]\n")
    exit(2)
}
