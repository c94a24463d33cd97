/** What other capabilities call on images (catalog): store an uploaded image, remove it, check references. */
export { deleteImage, uploadImage } from './service';
export { missingImageIds } from './references';
