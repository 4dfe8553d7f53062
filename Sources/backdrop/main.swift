// The `backdrop` command. Everything but this line lives in BackdropCLI, so that the option parsing can be
// fuzzed (Fuzz/) and tested as a library.
import BackdropCLI

BackdropCommand.main()
