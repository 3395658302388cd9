module github.com/contentgen/contentgen

go 1.26.8

require (
	github.com/brianvoe/gofakeit/v7 v7.18.1
	github.com/go-faker/faker/v4 v4.12.0
	github.com/google/uuid v1.6.0
	github.com/stretchr/testify v1.12.1
	go.uber.org/goleak v1.3.0
	golang.org/x/text v0.43.0
	pgregory.net/rapid v1.3.0
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect
