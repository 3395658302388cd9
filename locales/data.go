package locales

import _ "embed" // data files of the locale packs

// The data files are embedded as strings so that every word a pack holds is
// a substring of its file: one backing string per file, no copies.

var (
	//go:embed data/lorem.txt
	loremFile string
	//go:embed data/en_US.txt
	enUSFile string
	//go:embed data/en_GB.txt
	enGBFile string
	//go:embed data/de_DE.txt
	deDEFile string
	//go:embed data/fr_FR.txt
	frFRFile string
	//go:embed data/es_ES.txt
	esESFile string
	//go:embed data/it_IT.txt
	itITFile string
	//go:embed data/nl_NL.txt
	nlNLFile string
	//go:embed data/pt_BR.txt
	ptBRFile string
	//go:embed data/pt_PT.txt
	ptPTFile string
	//go:embed data/pl_PL.txt
	plPLFile string
	//go:embed data/sv_SE.txt
	svSEFile string
	//go:embed data/da_DK.txt
	daDKFile string
	//go:embed data/cs_CZ.txt
	csCZFile string
	//go:embed data/tr_TR.txt
	trTRFile string
	//go:embed data/ru_RU.txt
	ruRUFile string
	//go:embed data/uk.txt
	ukFile string
	//go:embed data/ja.txt
	jaFile string
	//go:embed data/zh_CN.txt
	zhCNFile string
	//go:embed data/ko_KR.txt
	koKRFile string
)

// shippedLocale is one locale of NewRegistry: its code, its data file, the
// code of the locale whose file it extends (or ""), and whether a bare
// language code means it.
type shippedLocale struct {
	code    string
	file    *string
	base    string
	primary bool
}

// shipped lists the locales of NewRegistry, in the order of List before
// sorting. It is a function so that no table is package-level state.
func shipped() []shippedLocale {
	return []shippedLocale{
		{"en_US", &enUSFile, "", true},
		{"en_GB", &enGBFile, "en_US", false},
		{"de_DE", &deDEFile, "", true},
		{"fr_FR", &frFRFile, "", true},
		{"es_ES", &esESFile, "", true},
		{"it_IT", &itITFile, "", true},
		{"nl_NL", &nlNLFile, "", true},
		{"pt_BR", &ptBRFile, "", true},
		{"pt_PT", &ptPTFile, "pt_BR", false},
		{"pl_PL", &plPLFile, "", true},
		{"sv_SE", &svSEFile, "", true},
		{"da_DK", &daDKFile, "", true},
		{"cs_CZ", &csCZFile, "", true},
		{"tr_TR", &trTRFile, "", true},
		{"ru_RU", &ruRUFile, "", true},
		{"uk", &ukFile, "", true},
		{"ja", &jaFile, "", true},
		{"zh_CN", &zhCNFile, "", true},
		{"ko_KR", &koKRFile, "", true},
	}
}
