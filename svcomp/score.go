package svcomp

// The SV-COMP scores of an answer (see ../shared/bench/svcomp/README.md).
const (
	ScoreCorrectTrue  = 2
	ScoreCorrectFalse = 1
	ScoreWrongFalse   = -16
	ScoreWrongTrue    = -32
)

// Category is how an answer compares with the expected one.
type Category string

// The categories.
const (
	Correct    Category = "correct"
	Wrong      Category = "wrong"
	NoAnswer   Category = "unknown" // the answer is Unknown
	NoExpected Category = "-"       // the task gives no expected answer
)

// CategoryOf compares answer with expected (True, False, or "" when not
// known).
func CategoryOf(expected, answer Answer) Category {
	switch {
	case expected == "":
		return NoExpected
	case answer == Unknown:
		return NoAnswer
	case answer == expected:
		return Correct
	}
	return Wrong
}

// Score is the SV-COMP score of answer when expected is the right one.
func Score(expected, answer Answer) int {
	switch {
	case expected == "" || answer == Unknown:
		return 0
	case answer == True && expected == True:
		return ScoreCorrectTrue
	case answer == False && expected == False:
		return ScoreCorrectFalse
	case answer == False:
		return ScoreWrongFalse
	}
	return ScoreWrongTrue
}

// MaxScore is the score of a correct answer for expected.
func MaxScore(expected Answer) int {
	switch expected {
	case True:
		return ScoreCorrectTrue
	case False:
		return ScoreCorrectFalse
	}
	return 0
}
