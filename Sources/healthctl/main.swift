import Glibc
import HealthManagerCLI

// Everything lives in HealthManagerCLI so the commands can be tested in-process.
exit(await HealthCtl.execute(Array(CommandLine.arguments.dropFirst())))
