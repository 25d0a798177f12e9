import Glibc
import HealthManagerCLI

// Everything lives in HealthManagerCLI so the commands can be tested in-process. The arguments
// go over as bytes, so invalid UTF-8 is refused rather than silently replaced.
let raw = (1..<Int(CommandLine.argc)).map { index in
    CommandLine.unsafeArgv[index].map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) } ?? []
}
exit(await HealthCtl.execute(rawArguments: raw))
