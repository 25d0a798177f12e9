import CCrashReport

// healthd's crash reporter (Sources/CCrashReport, Sources/healthd/CrashReport.swift) in a
// process that then traps the way session 21's unit string trapped healthd: an unchecked
// multiplication overflowing. CrashReportEndToEndTests reads the line it writes back to this
// file's trapping line with addr2line.
_ = ohk_crash_report_install(2, "crash-report-probe")
let factor = CommandLine.arguments.count * 999  // not a constant, so the overflow is not folded
var exponent = 1
for _ in 0..<7 { exponent = exponent * factor }  // overflows: 999^7 > Int.max (the trapping line)
print(exponent)
