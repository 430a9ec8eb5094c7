module github.com/htnsat/htnsat

go 1.26

require (
	github.com/alecthomas/participle/v2 v2.1.4
	github.com/crillab/gophersat v1.4.0
	github.com/spf13/cobra v1.10.2
	github.com/spf13/pflag v1.0.9
)

require github.com/inconshreveable/mousetrap v1.1.0 // indirect
