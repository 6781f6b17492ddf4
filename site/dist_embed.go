//go:build playground

package site

import (
	"embed"
	"io/fs"
)

// dist is the output of site/build (make site). Building with the
// playground tag and no site/dist fails here, by design: the tag promises
// the page.
//
//go:embed all:dist
var dist embed.FS

func init() {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err)
	}
	Dist = sub
}
