// juice's browser-safe entry: the same inliner without juiceResources/juiceFile, so bundles skip
// web-resource-inliner and mime (~80 KiB). Its types are the main entry's.
declare module 'juice/client' {
  import juice from 'juice';
  export default juice;
}
