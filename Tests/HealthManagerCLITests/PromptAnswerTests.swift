import HealthManagerCLI
import HealthModel
import HealthWire
import Testing

/// Answers built from `requests --id` flags and from scripted interactive input.
@Suite(.timeLimit(.minutes(10))) struct PromptAnswerTests {
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"
    static let steps = "HKQuantityTypeIdentifierStepCount"
    static let sleep = "HKCategoryTypeIdentifierSleepAnalysis"

    let prompt = AuthorizationPrompt(
        requestID: 7, appID: "com.example.sleep", appDisplayName: "Sleep Tracker",
        readUsageDescription: "Charts your nights.", shareUsageDescription: "Saves sleep.",
        readTypes: [heartRate, sleep], shareTypes: [sleep])

    @Test func allowAllAndDenyAllDecideEveryType() throws {
        #expect(try PromptDecisionPolicy.allowAll.answer(to: prompt).decisions == [
            GrantDecision(Self.heartRate, .read, .authorized), GrantDecision(Self.sleep, .read, .authorized),
            GrantDecision(Self.sleep, .share, .authorized),
        ])
        #expect(try PromptDecisionPolicy.denyAll.answer(to: prompt).decisions == [
            GrantDecision(Self.heartRate, .read, .denied), GrantDecision(Self.sleep, .read, .denied),
            GrantDecision(Self.sleep, .share, .denied),
        ])
    }

    @Test func allowOnlyDeniesTheRest() throws {
        let answer = try PromptDecisionPolicy.allowOnly(read: [Self.heartRate], share: []).answer(to: prompt)
        #expect(answer == PromptAnswer(requestID: 7, decisions: [
            GrantDecision(Self.heartRate, .read, .authorized), GrantDecision(Self.sleep, .read, .denied),
            GrantDecision(Self.sleep, .share, .denied),
        ]))
    }

    @Test func allowingATypeTheRequestDoesNotAskForIsAnError() {
        #expect(throws: HealthCtlError.typeNotRequested(typeIdentifier: Self.steps, access: .share, requestID: 7, requested: [Self.sleep])) {
            try PromptDecisionPolicy.allowOnly(read: [], share: [Self.steps]).answer(to: prompt)
        }
        let message = HealthCtlError.typeNotRequested(typeIdentifier: Self.steps, access: .share, requestID: 7, requested: [Self.sleep]).description
        #expect(message == "request 7 does not ask to share stepCount (it asks to share: sleepAnalysis)")
    }

    @Test func interactiveAnswersOnlyAllowOnExplicitYes() throws {
        let output = CapturedText()
        let io = CommandIO(output: output, errors: CapturedText(), input: ScriptedLines(["y", "maybe", "", "YES"]))
        let answer = try InteractivePromptAnswerer(io: io).answer(prompt)
        #expect(answer.decisions == [
            GrantDecision(Self.heartRate, .read, .authorized), GrantDecision(Self.sleep, .read, .denied),
            GrantDecision(Self.sleep, .share, .authorized),
        ])
        #expect(output.value == """
            Request 7: Sleep Tracker (com.example.sleep) asks for access to your health data.
              Why it reads: Charts your nights.
              Why it writes: Saves sleep.
            Allow Sleep Tracker to READ Heart Rate? [y/N] \
            Allow Sleep Tracker to READ Sleep Analysis? [y/N] Please answer y (allow) or n (deny).
            Allow Sleep Tracker to READ Sleep Analysis? [y/N] \
            Allow Sleep Tracker to WRITE Sleep Analysis? [y/N] 
            """)
    }

    @Test func inputEndingMidwaySendsNothing() {
        let io = CommandIO(output: CapturedText(), errors: CapturedText(), input: ScriptedLines(["y"]))
        #expect(throws: HealthCtlError.inputEnded(requestID: 7)) { try InteractivePromptAnswerer(io: io).answer(prompt) }
    }
}
