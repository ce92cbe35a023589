module ncmc

go 1.26.8

require (
	github.com/aclements/go-z3 v0.0.0-20220809013456-4675d5f90ca5 // indirect
	github.com/alecthomas/kong v1.17.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
