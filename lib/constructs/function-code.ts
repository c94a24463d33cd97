import { AssetHashType, DockerImage } from 'aws-cdk-lib';
import { Code } from 'aws-cdk-lib/aws-lambda';
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { bundleSync } from './bundle-sync';

/** A file copied into the function's package beside its bundle (paths relative to the project root and the package). */
export interface PackagedFile {
  from: string;
  to: string;
}

/**
 * A function's code: its generated entry bundled by esbuild's API (on the synth process's bundler
 * worker, bundle-sync.ts), with exactly the options and plugins `npm run build` and the bench use
 * (LAMBDA_BUILD_OPTIONS), plus any files it serves. NodejsFunction ran the esbuild CLI through
 * `npx` once per function (about 0.7 s of CPU each before esbuild started), needed the options
 * translated into CLI flags, and cannot run plugins. The asset is hashed by its output, so an
 * unchanged bundle is not uploaded again.
 */
export function bundledCode(projectRoot: string, entry: string, files: PackagedFile[] = []): Code {
  const relativeEntry = relative(projectRoot, entry);
  return Code.fromAsset(projectRoot, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Never run: the local build below always bundles (or throws). CDK requires an image, and
      // its asset cache tells bundles apart by these options, so the command names the entry.
      image: DockerImage.fromRegistry('local-esbuild-only'),
      command: ['esbuild', relativeEntry, ...files.map((file) => `${file.from}:${file.to}`)],
      local: {
        tryBundle(outputDir: string): boolean {
          bundleSync({ entryPoints: [entry], outdir: outputDir, absWorkingDir: projectRoot });
          for (const file of files) {
            const target = join(outputDir, file.to);
            mkdirSync(dirname(target), { recursive: true });
            copyFileSync(join(projectRoot, file.from), target);
          }
          return true;
        },
      },
    },
  });
}
