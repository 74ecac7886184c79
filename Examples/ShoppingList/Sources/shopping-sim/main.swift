#if canImport(Glibc)
import Glibc
#endif
import PeerLinkCore
import PeerLinkPOSIX
import PeerLinkScenarios
import PeerLinkWatchConnectivityHarness
import ShoppingListHarness

// `shopping-sim [FILE…] [options]`, `shopping-sim sweep FILE …`: sync-sim's command line
// over the shopping list (`--apps last-context-wins` runs the build with the classic bug);
// `shopping-sim node phone|watch …`: either side as a node process (process mode starts them so).
let args = Array(CommandLine.arguments.dropFirst())
if args.first == "node" {
    let rest = Array(args.dropFirst(2))
    switch args.count > 1 ? args[1] : "" {
    case "phone": exit(WCNodeMain.run(ShoppingListPhone.self, role: .phone, rest, programName: "shopping-sim node phone"))
    case "watch": exit(WCNodeMain.run(ShoppingListWatch.self, role: .watch, rest, programName: "shopping-sim node watch"))
    default:
        StandardError.write("shopping-sim: error: `shopping-sim node` takes phone or watch\n")
        exit(2)
    }
}

let usage = """
    usage: shopping-sim [FILE…] [options]      run shopping-list scenarios (sync-sim's options)
           shopping-sim sweep FILE --seeds N [--from S] [--jobs J] [--apps NAME]
           shopping-sim sweep FILE --seed S [--faults "…"] [--apps NAME]
           shopping-sim node phone|watch [node options]

      --mode process|sim  process: each side a process over TCP (default); sim: one process
      --apps NAME         shopping-list (default) or last-context-wins (the build with the bug)
    The other options are sync-sim's (sync-sim --help).
    """
var program = SimProgram(name: "shopping-sim", usage: usage, apps: .shoppingList)
program.otherApps = [.shoppingListLastContextWins]
program.processMode = { _ in ConductorOptions(phone: .thisExecutable(as: .phone), watch: .thisExecutable(as: .watch)) }
exit(SimCommandLine.run(args, program: program))
